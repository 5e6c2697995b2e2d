import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeTempWorkspace, REPO_ROOT } from '../support/workspace';

/**
 * `npm pack` produces a package that installs into a fresh project and works there: the library (ESM import and
 * CJS require), its typings, the `term-mcp` bin over STDIO, and the UI files. Dependencies come from the npm cache
 * that `npm ci` filled (`--prefer-offline`).
 */
describe('the packed npm package', () => {
  let scratch: ReturnType<typeof makeTempWorkspace>;
  let project: string;

  beforeAll(() => {
    scratch = makeTempWorkspace('term-mcp-pack-');
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', scratch.root], { cwd: REPO_ROOT, stdio: 'pipe' });
    const tarball = readdirSync(scratch.root).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack produced no tarball');
    project = path.join(scratch.root, 'host-project');
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'host-project', version: '1.0.0', private: true }));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(scratch.root, tarball)], { cwd: project, stdio: 'pipe' });
  }, 180_000);

  afterAll(() => scratch.remove());

  const installed = () => path.join(project, 'node_modules', 'term-mcp');

  test('ships the built library, its typings, the UI and the docs, and no sources or tests', () => {
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/main/cli.js', 'static/index.html', 'static/app.js', 'docs/compatibility.md', 'schemas/receipt-1.0.json', 'LICENSE']) {
      expect(existsSync(path.join(installed(), file))).toBe(true);
    }
    // The bin is the bundle (scripts/bundle.mjs): its chunks ship beside it, the build's chunk map does not.
    expect(readdirSync(path.join(installed(), 'dist', 'main', 'cli-chunks')).some((name) => name.startsWith('stdio-command-'))).toBe(true);
    expect(existsSync(path.join(installed(), 'dist', 'cli-bundle-meta.json'))).toBe(false);
    expect(existsSync(path.join(installed(), 'src'))).toBe(false);
    expect(existsSync(path.join(installed(), 'tests'))).toBe(false);
  });

  test('imports as ESM and requires as CJS', () => {
    const esm = execFileSync(process.execPath, ['--input-type=module', '-e', "const m = await import('term-mcp'); console.log(typeof m.createTermMcp, m.MODERN_PROTOCOL_VERSION)"], { cwd: project, encoding: 'utf8' });
    expect(esm.trim()).toBe('function 2026-07-28');
    const cjs = execFileSync(process.execPath, ['-e', "const m = require('term-mcp'); console.log(typeof m.createTermMcp)"], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(cjs.trim()).toBe('function');
  });

  test('its term-mcp bin answers server/discover over STDIO and exits 0 on EOF', () => {
    const request = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } };
    const result = spawnSync(path.join(project, 'node_modules', '.bin', 'term-mcp'), ['stdio', '--workspace', project], {
      input: `${JSON.stringify(request)}\n`,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toMatchObject({ id: 1, result: { supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']) } });
  });
});

import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { makeTempWorkspace, REPO_ROOT } from '../support/workspace';
import { TOKEN, describeInBrowser, useChromium, type UiPage } from './ui-harness';

const NPM_QUIET = ['--prefer-offline', '--no-audit', '--no-fund'];

/** The Express host of docs/embedding.md, exactly as the page shows it (the block after its test marker). */
function embeddingExample(): string {
  const doc = readFileSync(path.join(REPO_ROOT, 'docs', 'embedding.md'), 'utf8');
  const marker = doc.indexOf('<!-- tests/e2e/package.test.ts runs this block');
  const block = /```js\n([\s\S]*?)```/.exec(doc.slice(marker));
  if (marker === -1 || !block?.[1]) throw new Error('docs/embedding.md lost its tested Express example');
  return block[1];
}

/**
 * `npm pack` produces a package that installs into a fresh project and works there: `npm install --engine-strict` on
 * this Node (20 in CI), the library (ESM import and CJS require), its typings, the `term-mcp` bin through `npx`, and
 * the UI served from an Express host. Dependencies come from the npm cache that `npm ci` filled (`--prefer-offline`).
 */
describe('the packed npm package', () => {
  let scratch: ReturnType<typeof makeTempWorkspace>;
  let tarball: string;
  let project: string;
  let installLog: string;

  beforeAll(() => {
    scratch = makeTempWorkspace('term-mcp-pack-');
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', scratch.root], {
      cwd: REPO_ROOT,
      stdio: 'pipe',
    });
    const name = readdirSync(scratch.root).find((entry) => entry.endsWith('.tgz'));
    if (!name) throw new Error('npm pack produced no tarball');
    tarball = path.join(scratch.root, name);
    project = path.join(scratch.root, 'host-project');
    mkdirSync(project);
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'host-project', version: '1.0.0', private: true, type: 'module' }),
    );
    // --engine-strict: an install fails when any package it brings does not support this Node (issue 23: it did).
    const install = spawnSync('npm', ['install', '--engine-strict', ...NPM_QUIET, tarball, 'express@5'], {
      cwd: project,
      encoding: 'utf8',
    });
    installLog = `${install.stdout}${install.stderr}`;
    if (install.status !== 0) throw new Error(`npm install --engine-strict failed:\n${installLog.slice(-2000)}`);
  }, 180_000);

  afterAll(() => scratch.remove());

  const installed = () => path.join(project, 'node_modules', 'term-mcp');

  test('installs with --engine-strict on this Node, with no engine warning and no test-only dependency', () => {
    expect(installLog).not.toMatch(/EBADENGINE/);
    expect(existsSync(path.join(project, 'node_modules', '@anthropic-ai', 'sandbox-runtime'))).toBe(false);
  });

  test('ships the built library, its typings, the UI and the docs, and no sources or tests', () => {
    for (const file of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/main/cli.js',
      'static/index.html',
      'static/app.js',
      'docs/compatibility.md',
      'schemas/receipt-1.0.json',
      'LICENSE',
    ]) {
      expect(existsSync(path.join(installed(), file))).toBe(true);
    }
    // The bin is the bundle (scripts/bundle.mjs): its chunks ship beside it, the build's chunk map does not.
    expect(
      readdirSync(path.join(installed(), 'dist', 'main', 'cli-chunks')).some((name) =>
        name.startsWith('stdio-command-'),
      ),
    ).toBe(true);
    expect(existsSync(path.join(installed(), 'dist', 'cli-bundle-meta.json'))).toBe(false);
    expect(existsSync(path.join(installed(), 'src'))).toBe(false);
    expect(existsSync(path.join(installed(), 'tests'))).toBe(false);
  });

  test('imports as ESM and requires as CJS', () => {
    const esm = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('term-mcp'); console.log(typeof m.createTermMcp, m.MODERN_PROTOCOL_VERSION)",
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(esm.trim()).toBe('function 2026-07-28');
    const cjs = execFileSync(
      process.execPath,
      ['-e', "const m = require('term-mcp'); console.log(typeof m.createTermMcp)"],
      { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(cjs.trim()).toBe('function');
  });

  test('npx term-mcp --version and npx term-mcp doctor --json work in the project that installed it', () => {
    const version = spawnSync('npx', ['--no-install', 'term-mcp', '--version'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version);
    const doctor = spawnSync('npx', ['--no-install', 'term-mcp', 'doctor', '--json'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const report = JSON.parse(doctor.stdout) as { checks: Record<string, { ok: boolean; detail: string }> };
    expect(report.checks.node?.ok).toBe(true);
    expect(report.checks.configuration?.detail).toContain(project);
  });

  test("npx term-mcp --version works inside the clone after set-up (npm exec finds the project's own bin)", () => {
    const result = spawnSync('npx', ['--no-install', 'term-mcp', '--version'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  test('npx --package <tarball> term-mcp --version runs from an empty directory', () => {
    const empty = path.join(scratch.root, 'empty');
    mkdirSync(empty);
    const result = spawnSync('npx', ['--yes', ...NPM_QUIET, '--package', tarball, 'term-mcp', '--version'], {
      cwd: empty,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr.slice(-1000) }).toEqual({
      status: 0,
      stderr: '',
    });
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  }, 150_000);

  test('a TypeScript consumer type-checks against the installed typings (nodenext, with @types/node and @types/express)', () => {
    const consumer = path.join(scratch.root, 'ts-consumer');
    mkdirSync(consumer);
    writeFileSync(
      path.join(consumer, 'package.json'),
      JSON.stringify({ name: 'ts-consumer', version: '1.0.0', private: true, type: 'module' }),
    );
    const pinned = (name: string) =>
      `${name}@${(JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies[name]}`;
    execFileSync(
      'npm',
      ['install', ...NPM_QUIET, tarball, 'express@5', pinned('@types/node'), pinned('@types/express')],
      { cwd: consumer, stdio: 'pipe' },
    );
    writeFileSync(
      path.join(consumer, 'host.ts'),
      [
        "import express from 'express';",
        "import { createTermMcp, TYPES, type PolicyEngine } from 'term-mcp';",
        'const termMcp = createTermMcp({ env: { WORKSPACE_ROOT: process.cwd() }, overrides: (container) => { container.get<PolicyEngine>(TYPES.PolicyEngine); } });',
        'const app = express();',
        "app.use('/terminal', termMcp.httpApp());",
        'export default app;',
        '',
      ].join('\n'),
    );
    const tsc = spawnSync(
      path.join(REPO_ROOT, 'node_modules', '.bin', 'tsc'),
      [
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        'host.ts',
      ],
      { cwd: consumer, encoding: 'utf8', timeout: 120_000 },
    );
    expect({
      status: tsc.status,
      errors: tsc.stdout
        .split('\n')
        .filter((line) => /error TS/.test(line))
        .slice(0, 5),
    }).toEqual({ status: 0, errors: [] });
  }, 180_000);

  test('its term-mcp bin answers server/discover over STDIO and exits 0 on EOF', () => {
    const request = {
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    };
    const result = spawnSync(
      path.join(project, 'node_modules', '.bin', 'term-mcp'),
      ['stdio', '--workspace', project],
      {
        input: `${JSON.stringify(request)}\n`,
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toMatchObject({
      id: 1,
      result: { supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']) },
    });
  });

  describeInBrowser('embedded in an Express host (docs/embedding.md) under /terminal', () => {
    const chromium = useChromium();
    let host: ChildProcess | undefined;
    let hostStderr = '';
    let ui: UiPage | undefined;

    afterEach(async () => {
      await ui?.close();
      if (host && host.exitCode === null) {
        const exited = new Promise((resolve) => host?.once('exit', resolve));
        host.kill('SIGTERM');
        await exited;
      }
    });

    /** Starts host.mjs on a random port and resolves with the UI URL it prints. */
    function startHost(): Promise<string> {
      writeFileSync(path.join(project, 'host.mjs'), embeddingExample());
      const child = spawn(process.execPath, ['host.mjs'], {
        cwd: project,
        env: { ...process.env, PORT: '0', TERM_MCP_TOKEN: TOKEN, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      host = child;
      child.stderr?.on('data', (chunk: Buffer) => (hostStderr += chunk.toString()));
      return new Promise((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`host.mjs exited ${code}: ${hostStderr.slice(-1000)}`)));
        createInterface({ input: child.stdout! }).on('line', (line) => {
          const url = /^term-mcp UI: (http:\/\/\S+)$/.exec(line)?.[1];
          if (url) resolve(url);
        });
      });
    }

    test('serves the UI from the installed package; the page connects, plans and runs a command', async () => {
      const url = await startHost();
      expect(url).toMatch(/\/terminal\/$/);
      ui = await chromium.open({ width: 1280, height: 860 });
      await ui.connect(url);
      const card = await ui.plan('echo served-from-the-tarball', 'Planned');
      await card.locator('[data-action=run]').click();
      await ui.waitForTerminalLine(/^served-from-the-tarball$/);
      // xterm.js came from the installed @xterm/* packages; no file of the page was missing.
      expect(ui.requested).toContain('/terminal/vendor/xterm.mjs');
      expect(ui.notFound).toEqual([]);
      expect(ui.errors).toEqual([]);
      expect(hostStderr).not.toContain('web UI files not found');
    }, 90_000);
  });
});

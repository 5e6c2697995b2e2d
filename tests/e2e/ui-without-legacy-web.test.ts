import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { makeTempWorkspace, REPO_ROOT } from '../support/workspace';
import { TOKEN, UiPage, describeInBrowser, useChromium } from './ui-harness';

/**
 * Issue 21: the deprecated web API is a folder that can be deleted. This builds a copy of the package with
 * src/adapters/legacy-web/ deleted and the lines of src/main/web-mounts.ts that name it (its import and its one mount
 * line) removed, with the project's own tsc and bundler, starts that build's CLI (`term-mcp http`) and drives the UI in
 * real Chromium: it connects, plans, approves, runs a command and shows its output, on current routes only.
 */

// Building a copy of the package (tsc over every source file, then the bundle) takes a while on a loaded machine.
jest.setTimeout(300_000);

/** What a build of the package needs: sources, the UI, the docs it serves, the bundler, the manifests. */
const COPIED = ['src', 'static', 'docs', 'scripts', 'package.json', 'tsconfig.base.json', 'tsconfig.build.json'];
const LEGACY_FOLDER = path.join('src', 'adapters', 'legacy-web');
const MOUNTS_FILE = path.join('src', 'main', 'web-mounts.ts');
const COMMAND = 'echo without-legacy; sleep 1; echo web';

interface Variant {
  readonly dir: string;
  readonly removedLines: readonly string[];
}

/** A copy of the package without the legacy web folder and its mount, built as `npm run build` builds it. */
function buildWithoutLegacyWeb(): Variant {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'term-mcp-no-legacy-web-')));
  for (const entry of COPIED) cpSync(path.join(REPO_ROOT, entry), path.join(dir, entry), { recursive: true });
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');

  rmSync(path.join(dir, LEGACY_FOLDER), { recursive: true });
  const mounts = path.join(dir, MOUNTS_FILE);
  const lines = readFileSync(mounts, 'utf8').split('\n');
  const names = (line: string): boolean => line.includes('adapters/legacy-web/') || line.includes('legacyWebMounts');
  writeFileSync(mounts, lines.filter((line) => !names(line)).join('\n'));

  execFileSync(
    process.execPath,
    [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    { cwd: dir, stdio: 'pipe' },
  );
  execFileSync(process.execPath, [path.join(dir, 'scripts', 'bundle.mjs')], { cwd: dir, stdio: 'pipe' });
  return { dir, removedLines: lines.filter(names) };
}

/** Every source file under `dir` whose text names the legacy folder. */
function filesNamingLegacyWeb(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .filter((file) => readFileSync(path.join(dir, file), 'utf8').includes('legacy-web'));
}

interface RunningCli {
  readonly child: ChildProcess;
  readonly origin: string;
}

/** `node <variant>/dist/main/cli.js http` on a random loopback port; resolves with its origin once it listens. */
function startCli(cli: string, workspace: string): Promise<RunningCli> {
  const child = spawn(process.execPath, [cli, 'http'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      WORKSPACE_ROOT: workspace,
      TERM_MCP_TOKEN: TOKEN,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`term-mcp http exited ${String(code)}: ${stderr.slice(-2000)}`)));
    createInterface({ input: child.stderr! }).on('line', (line) => {
      stderr += `${line}\n`;
      const url = line.includes('"term-mcp http listening"') ? (JSON.parse(line) as { url?: string }).url : undefined;
      if (url !== undefined) resolve({ child, origin: new URL(url).origin });
    });
  });
}

async function stopCli(cli: RunningCli | undefined): Promise<void> {
  if (!cli || cli.child.exitCode !== null) return;
  const exited = new Promise((resolve) => cli.child.once('exit', resolve));
  cli.child.kill('SIGTERM');
  await exited;
}

describeInBrowser('the UI of a build without src/adapters/legacy-web/', () => {
  const chromium = useChromium();
  const workspace = makeTempWorkspace('term-mcp-no-legacy-ws-');
  let variant: Variant | undefined;
  let cli: RunningCli | undefined;
  let ui: UiPage | undefined;

  beforeAll(async () => {
    variant = buildWithoutLegacyWeb();
    cli = await startCli(path.join(variant.dir, 'dist', 'main', 'cli.js'), workspace.root);
  });

  afterAll(async () => {
    await ui?.close();
    await stopCli(cli);
    if (variant) rmSync(variant.dir, { recursive: true, force: true });
    workspace.remove();
  });

  it('removes exactly the folder, its import and its one mount line, and still compiles', () => {
    const { dir, removedLines } = variant!;
    expect(removedLines).toEqual([
      "import { legacyWebMounts } from '../adapters/legacy-web/legacy-web-router.js';",
      expect.stringMatching(/^ +legacyWebMounts\(\{.*\}\),$/),
    ]);
    expect(existsSync(path.join(dir, LEGACY_FOLDER))).toBe(false);
    expect(filesNamingLegacyWeb(path.join(dir, 'src'))).toEqual([]);
    expect(existsSync(path.join(dir, 'dist', 'adapters', 'legacy-web'))).toBe(false);
  });

  it('no longer serves the deprecated routes', async () => {
    const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
    const replies = await Promise.all([
      fetch(`${cli!.origin}/sessions`, { method: 'POST', headers: auth }),
      fetch(`${cli!.origin}/stream?session_id=00000000-0000-0000-0000-000000000000`, { headers: auth }),
      fetch(`${cli!.origin}/chat`, { method: 'POST', headers: auth, body: '{"message":"hi"}' }),
    ]);
    expect(replies.map((reply) => reply.status)).toEqual([404, 404, 404]);
    expect(replies.map((reply) => reply.headers.get('deprecation'))).toEqual([null, null, null]);
  });

  it('plans, approves, runs a command and shows its output in real Chromium, on current routes only', async () => {
    ui = await chromium.open({ width: 1280, height: 860 });
    const { page } = ui;
    await ui.connect(`${cli!.origin}/`);
    // `sleep` makes the policy ask for approval (long_running_process), so the Approve button is there to press.
    const card = await ui.plan(COMMAND, 'Planned');
    await ui.waitForSession();
    // The session's event stream is the current one (GET ui/events), read through the TerminalEvents port.
    await ui.waitForEventStreams(1);
    await card.locator('[data-action=approve]').click();
    await card.locator('[data-role=status]').filter({ hasText: 'Approved' }).waitFor();
    await card.locator('[data-action=run]').click();
    await card.locator('[data-role=status]').filter({ hasText: 'Succeeded' }).waitFor();
    await ui.waitForTerminalLine(/^without-legacy$/);
    await ui.waitForTerminalLine(/^web$/);
    expect(await card.locator('[data-role=output]').textContent()).toBe('without-legacy\nweb\n');
    await page.locator('#receipt-command').filter({ hasText: COMMAND }).waitFor();

    expect(ui.requested).toEqual(expect.arrayContaining(['/ui/config', '/mcp', '/ui/events']));
    expect(
      ui.requested.filter((requested) =>
        ['/sessions', '/stream', '/chat'].some((legacy) => requested.startsWith(legacy)),
      ),
    ).toEqual([]);
    expect(ui.notFound).toEqual([]);
    expect(ui.errors).toEqual([]);
  });
});

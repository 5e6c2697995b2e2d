import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/main/config';
import { startHttpServer } from '../../src/main/run-http';
import { withReceiptKey } from '../../src/main/receipt-key';
import { makeOutsideDir } from '../support/sandbox-attack';
import { modern, StdioPeer } from '../support/stdio-peer';
import { CLI_PATH, makeTempWorkspace } from '../support/workspace';
import { TOKEN } from './http-harness';

/*
 * Issue 23 item 4 / issue 26 item 3: without a configured key, receipts are signed with a persistent key the server
 * creates on first start in its state directory (0600, exclusively, never through a link), so a receipt signed by one
 * server process verifies after a restart: with `term-mcp receipt validate` and with the UI's validation route.
 */

jest.setTimeout(60_000);

let workspace: ReturnType<typeof makeTempWorkspace>;
let state: ReturnType<typeof makeOutsideDir>;

beforeEach(() => {
  workspace = makeTempWorkspace('term-mcp-key-');
  state = makeOutsideDir('term-mcp-key-state-');
});

afterEach(() => {
  workspace.remove();
  state.remove();
});

const baseEnv = (): Record<string, string> => ({
  WORKSPACE_ROOT: workspace.root,
  TERM_MCP_STATE_DIR: path.join(state.root, 'state'),
});

async function receiptFromOneServerProcess(): Promise<Record<string, unknown>> {
  const peer = new StdioPeer(baseEnv());
  try {
    const answer = await peer.request(
      modern('tools/call', 'run', { name: 'terminal_execute', arguments: { command: 'echo signed-before-restart' } }),
      30_000,
    );
    return (answer.result as { structuredContent: Record<string, unknown> }).structuredContent;
  } finally {
    await peer.end();
  }
}

describe('the persistent receipt key', () => {
  it('is created on first start (0600), and a receipt verifies after a restart with the CLI and the UI route', async () => {
    const receipt = await receiptFromOneServerProcess();
    expect(receipt.stdout).toBe('signed-before-restart\n');
    const keyFile = path.join(state.root, 'state', 'receipt-key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, 'utf8');
    // A second server process: the same key, not a new one.
    await receiptFromOneServerProcess();
    expect(readFileSync(keyFile, 'utf8')).toBe(key);
    const file = path.join(state.root, 'receipt.json');
    writeFileSync(file, JSON.stringify(receipt));
    const validate = spawnSync(process.execPath, [CLI_PATH, 'receipt', 'validate', file], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...baseEnv() },
      encoding: 'utf8',
    });
    expect(validate).toMatchObject({ status: 0, stdout: 'valid: schema 1.0, signature verified\n' });
    const tampered = spawnSync(process.execPath, [CLI_PATH, 'receipt', 'validate', '-'], {
      input: JSON.stringify({ ...receipt, stdout: 'changed\n' }),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...baseEnv() },
      encoding: 'utf8',
    });
    expect(tampered.status).toBe(1);
    // The UI's route, on a restarted HTTP server of the same state directory (a bearer for the route, no key set).
    const config = withReceiptKey(
      loadConfig({ ...baseEnv(), HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'error' }, {}),
      () => undefined,
    );
    const handle = await startHttpServer({ ...config, token: TOKEN });
    try {
      const answer = await fetch(new URL('/receipts/validate', handle.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(receipt),
      });
      expect(await answer.json()).toEqual({ schema_valid: true, signature_valid: true, errors: [] });
    } finally {
      await handle.close();
    }
  });

  it('the configured key still wins over the persistent one', async () => {
    const receipt = await receiptFromOneServerProcess();
    const file = path.join(state.root, 'receipt.json');
    writeFileSync(file, JSON.stringify(receipt));
    const validate = spawnSync(process.execPath, [CLI_PATH, 'receipt', 'validate', file], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...baseEnv(), TERM_MCP_RECEIPT_KEY: 'another-key' },
      encoding: 'utf8',
    });
    expect(validate.status).toBe(1);
  });

  it('never follows a link planted at the key file, and never reads a key others can read', () => {
    const dir = path.join(state.root, 'state');
    const elsewhere = path.join(state.root, 'elsewhere');
    spawnSync('mkdir', ['-p', dir]);
    symlinkSync(elsewhere, path.join(dir, 'receipt-key'));
    const config = withReceiptKey(loadConfig(baseEnv(), {}), () => undefined);
    expect(existsSync(elsewhere)).toBe(false);
    expect(config.receiptKey).toMatch(/^[0-9a-f]{64}$/);
    spawnSync('rm', [path.join(dir, 'receipt-key')]);
    writeFileSync(path.join(dir, 'receipt-key'), 'a'.repeat(64));
    chmodSync(path.join(dir, 'receipt-key'), 0o644);
    const warnings: string[] = [];
    const loose = withReceiptKey(loadConfig(baseEnv(), {}), (line) => warnings.push(line));
    expect(loose.receiptKey).not.toBe('a'.repeat(64));
    expect(warnings.join('')).toContain('must be 0600');
  });

  it('start-up refuses a state directory, an audit log or a policy file inside the workspace (exit 2, one line)', () => {
    for (const [name, value] of [
      ['TERM_MCP_STATE_DIR', path.join(workspace.root, '.state')],
      ['AUDIT_LOG', path.join(workspace.root, 'logs', 'audit.jsonl')],
      ['TERM_MCP_POLICY', path.join(workspace.root, 'policy.yaml')],
    ] as const) {
      const run = spawnSync(process.execPath, [CLI_PATH, 'stdio'], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...baseEnv(), [name]: value },
        input: '',
        encoding: 'utf8',
      });
      expect(run.status).toBe(2);
      expect(run.stderr.trim().split('\n')).toEqual([
        expect.stringContaining(`${name}: ${value} is inside the workspace`),
      ]);
    }
  });
});

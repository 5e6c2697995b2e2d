import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionReceipt } from '../../src/domain/terminal/receipt-types';
import { RECEIPT_KEY, TerminalFixture } from '../application/terminal/terminal-fixture';
import {
  jsonSchemaValidator,
  SEED_KEY,
  SEED_RECEIPT_FILE,
  SHIPPED_SCHEMA_FILE,
  seedReceipt,
} from '../support/receipt-fixtures';
import { makeOutsideDir } from '../support/sandbox-attack';
import { StdioPeer } from '../support/stdio-peer';
import { CLI_PATH, makeTempWorkspace } from '../support/workspace';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI, spawned with a clean environment (only what a test passes, never the runner's tokens). */
function cli(args: string[], env: Record<string, string> = {}, input?: string): Run {
  const result = spawnSync(process.execPath, [CLI_PATH, ...args], {
    cwd: scratch.root,
    input,
    // An empty state directory of its own: no persistent key of another server run is found.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM_MCP_STATE_DIR: stateDir.root, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const stateDir = makeOutsideDir('term-mcp-cli-receipt-state-');

let scratch: ReturnType<typeof makeTempWorkspace>;
let ours: ExecutionReceipt;
let oursFile: string;
const withOurKey = { TERM_MCP_RECEIPT_KEY: RECEIPT_KEY };

function write(name: string, content: string | object): string {
  const file = path.join(scratch.root, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

beforeAll(async () => {
  scratch = makeTempWorkspace('term-mcp-cli-receipt-');
  const fixture = new TerminalFixture();
  try {
    ours = (await fixture.ok('terminal_execute', { command: 'echo hello' })) as unknown as ExecutionReceipt;
  } finally {
    await fixture.dispose();
  }
  oursFile = write('ours.json', ours);
});

afterAll(() => {
  scratch.remove();
  stateDir.remove();
});

describe('term-mcp receipt validate', () => {
  test('exits 0 for a receipt of this server, verified with the configured key', () => {
    const run = cli(['receipt', 'validate', oursFile], withOurKey);
    expect(run).toMatchObject({ status: 0, stdout: 'valid: schema 1.0, signature verified\n' });
  });

  test('takes the key from AUTH_TOKEN as the seed does, and prints the seed report with --json', () => {
    const run = cli(['receipt', 'validate', SEED_RECEIPT_FILE, '--json'], { AUTH_TOKEN: SEED_KEY });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ schema_valid: true, signature_valid: true, errors: [] });
  });

  test('exits 1 for a tampered receipt, and for the right receipt under another key', () => {
    const tampered = write('tampered.json', { ...ours, stdout: 'all good\n' });
    expect(cli(['receipt', 'validate', tampered], withOurKey)).toMatchObject({
      status: 1,
      stdout: 'invalid: the signature does not verify with the configured key\n',
    });
    expect(cli(['receipt', 'validate', oursFile], { TERM_MCP_RECEIPT_KEY: 'some-other-key-0123456789' }).status).toBe(
      1,
    );
  });

  test('--structure-only checks the schema alone: 0 for a tampered but well-formed receipt, 1 for a malformed one', () => {
    const tampered = write('tampered-structure.json', { ...ours, stdout: 'all good\n' });
    expect(cli(['receipt', 'validate', tampered, '--structure-only'])).toMatchObject({
      status: 0,
      stdout: 'valid: the receipt matches schema 1.0 (signature not checked)\n',
    });
    const malformed = write('malformed.json', { ...ours, exit_code: 'zero', extra: true });
    const run = cli(['receipt', 'validate', malformed, '--structure-only']);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('invalid: the receipt does not match schema 1.0');
    expect(run.stdout).toContain('exit_code:');
    expect(run.stdout).toContain('extra');
  });

  test('exits 2 for a file that cannot be read, is not JSON, or is a directory', () => {
    const missing = cli(['receipt', 'validate', path.join(scratch.root, 'nope.json')], withOurKey);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    expect(missing.stderr).toContain('ENOENT');
    const garbage = cli(['receipt', 'validate', write('garbage.json', '{"id": ')], withOurKey);
    expect(garbage.status).toBe(2);
    expect(garbage.stderr).toContain('is not valid JSON');
    expect(cli(['receipt', 'validate', scratch.root], withOurKey).status).toBe(2);
  });

  test('exits 2 naming the variables when no key is configured (a verdict needs a key)', () => {
    const run = cli(['receipt', 'validate', oursFile]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('TERM_MCP_RECEIPT_KEY');
    expect(run.stderr).toContain('--structure-only');
  });

  test('exits 2 with the usage for an unknown flag, a missing file or an unknown action', () => {
    for (const args of [
      ['receipt', 'validate', oursFile, '--strict'],
      ['receipt', 'validate'],
      ['receipt', 'stamp', oursFile],
      ['receipt'],
      ['demo', '--yaml'],
    ]) {
      const run = cli(args, withOurKey);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('Usage: term-mcp');
    }
  });
});

describe('a receipt from a real `term-mcp stdio` server', () => {
  let peer: StdioPeer | undefined;

  afterEach(async () => {
    await peer?.end();
    peer = undefined;
  });

  test('validates with the same key the server signed with, and not with another', async () => {
    const key = 'stdio-receipt-key-0123456789abcdef';
    peer = new StdioPeer({ WORKSPACE_ROOT: scratch.root, TERM_MCP_RECEIPT_KEY: key });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const answer = await peer.request(
      {
        id: 1,
        method: 'tools/call',
        params: { name: 'terminal_execute', arguments: { command: 'echo from stdio' }, _meta: meta },
      },
      30_000,
    );
    const receipt = (answer.result as { structuredContent: Record<string, unknown> }).structuredContent;
    expect(receipt).toMatchObject({ status: 'succeeded', stdout: 'from stdio\n' });
    const file = write('stdio.json', receipt);
    expect(cli(['receipt', 'validate', file], { TERM_MCP_RECEIPT_KEY: key })).toMatchObject({
      status: 0,
      stdout: 'valid: schema 1.0, signature verified\n',
    });
    expect(cli(['receipt', 'validate', file], withOurKey).status).toBe(1);
  });
});

describe('standard input (`-`)', () => {
  test('redact | validate works as a pipeline', () => {
    const redacted = cli(['receipt', 'redact', '-'], withOurKey, JSON.stringify(ours));
    expect(redacted.status).toBe(0);
    expect(cli(['receipt', 'validate', '-'], withOurKey, redacted.stdout)).toMatchObject({
      status: 0,
      stdout: 'valid: schema 1.0, signature verified\n',
    });
  });

  test('non-JSON input exits 2', () => {
    const run = cli(['receipt', 'validate', '-', '--structure-only'], {}, 'not json');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('standard input is not valid JSON');
  });
});

describe('term-mcp receipt show', () => {
  test('prints id, status, command, cwd, risk, approval, times, duration, exit code and truncation, with the seal', () => {
    const run = cli(['receipt', 'show', oursFile], withOurKey);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      [
        `id         ${ours.id}`,
        'status     succeeded',
        'command    echo hello',
        `cwd        ${ours.cwd}`,
        'risk       low',
        'approved   yes',
        `started    ${ours.started_at}`,
        `finished   ${ours.finished_at}`,
        `duration   ${ours.duration_ms} ms`,
        'ended with exit code 0',
        'output     complete',
        'signature  verified',
        '',
      ].join('\n'),
    );
  });

  test('--json prints the seed summary; without a key the seal says it was not checked', () => {
    const json = cli(['receipt', 'show', SEED_RECEIPT_FILE, '--json']);
    expect(json.status).toBe(0);
    const seed = seedReceipt();
    expect(JSON.parse(json.stdout)).toEqual({
      id: seed.id,
      status: 'succeeded',
      command: 'ls -la',
      cwd: '/home/dev/project',
      risk: 'low',
      approved: true,
      started_at: seed.started_at,
      finished_at: seed.finished_at,
      duration_ms: 12,
      exit_code: 0,
      signal: null,
      output_truncated: false,
    });
    expect(cli(['receipt', 'show', SEED_RECEIPT_FILE]).stdout).toContain(
      'signature  not checked (no receipt key configured)',
    );
    expect(cli(['receipt', 'show', write('bad-seal.json', { ...ours, exit_code: 3 })], withOurKey).stdout).toContain(
      'signature  BAD SIGNATURE',
    );
  });

  test('a signal ends the line instead of an exit code', () => {
    const killed = write('killed.json', { ...ours, status: 'cancelled', exit_code: null, signal: 15 });
    expect(cli(['receipt', 'show', killed], withOurKey).stdout).toContain('ended with signal 15');
  });
});

describe('term-mcp receipt redact', () => {
  test('prints the share-redacted copy, re-signed: it validates and says sharing_redacted', () => {
    const run = cli(['receipt', 'redact', oursFile], withOurKey);
    expect(run.status).toBe(0);
    const redacted = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(redacted).toMatchObject({
      sharing_redacted: true,
      command: '[REDACTED FOR SHARING]',
      cwd: '[REDACTED FOR SHARING]',
      stdout: '[REDACTED FOR SHARING]',
      stderr: '[REDACTED FOR SHARING]',
      policy: { argv: [] },
      id: ours.id,
      command_sha256: ours.command_sha256,
    });
    expect(redacted.signature).not.toBe(ours.signature);
    const file = write('redacted.json', redacted);
    expect(cli(['receipt', 'validate', file], withOurKey).status).toBe(0);
    const schema = JSON.parse(readFileSync(SHIPPED_SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
    expect(jsonSchemaValidator(schema)(redacted)).toEqual({ valid: true, errors: [] });
  });

  test('redacts a seed receipt with the seed key', () => {
    const run = cli(['receipt', 'redact', SEED_RECEIPT_FILE], { AUTH_TOKEN: SEED_KEY });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      sharing_redacted: true,
      signature: '4029b5d9709b207b2a07d989d57c60e73efea81142e00e660e8860098928d2d7',
    });
  });

  test('refuses a receipt whose signature does not verify (exit 1, nothing on stdout)', () => {
    const tampered = write('tampered-redact.json', { ...ours, exit_code: 0, stdout: 'edited\n' });
    const run = cli(['receipt', 'redact', tampered], withOurKey);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('only a valid signed receipt can be redacted for sharing');
  });
});

describe('term-mcp demo', () => {
  test('prints each seed scenario as `id: command — outcome` with what it shows', () => {
    const run = cli(['demo']);
    expect(run.status).toBe(0);
    const headLines = run.stdout.split('\n').filter((line) => !line.startsWith(' ') && line !== '');
    expect(headLines).toEqual([
      'inspect-workspace: pwd — A low-risk successful receipt',
      'approval-cancel: sleep 15 — Approve, pause, resume, then cancel a bounded process',
      'catalog-overview: ls -la — Read-only output without a model key',
    ]);
  });

  test('--json prints {scenarios} with the UI names and the seed names', () => {
    const run = cli(['demo', '--json']);
    expect(run.status).toBe(0);
    const { scenarios } = JSON.parse(run.stdout) as { scenarios: Array<Record<string, string>> };
    expect(scenarios.map((scenario) => scenario.command)).toEqual(['pwd', 'sleep 15', 'ls -la']);
    expect(scenarios[0]).toMatchObject({
      id: 'inspect-workspace',
      title: 'Inspect workspace',
      label: 'Inspect workspace',
      description: 'A low-risk successful receipt',
    });
  });
});

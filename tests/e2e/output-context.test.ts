import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { connectV1Client, type V1Connection } from '../support/sdk-v1-client';
import { jsonSchemaValidator, SHIPPED_SCHEMA_FILE } from '../support/receipt-fixtures';
import { seededRandom } from '../support/seeded-random';
import { makeTempWorkspace } from '../support/workspace';

/*
 * Issue 24, output that saves context, against the built server over STDIO with the v1 SDK client (which checks
 * every structured result against the tool's outputSchema) and the real sandbox: a 50 MB command's result is at most
 * the byte cap plus 2 KiB, a valid receipt, with the first and the last lines; its whole output is a resource whose
 * every slice is byte-exact and whose SHA-256 is the receipt's; escapes can be stripped; the spool, in the server's
 * state directory, is gone when the server stops.
 */

jest.setTimeout(180_000);

const RESULT_CAP = 16_384;
const LAST = 6_500_000;
const MIB = 1_048_576;

interface Digest {
  total_bytes: number;
  kept_bytes: number;
  sha256: string;
  omitted_bytes: number;
}

interface Receipt {
  status: string;
  command_id: string;
  session_id: string;
  stdout: string;
  stderr: string;
  output_truncated: boolean;
  output: { stdout: Digest; stderr: Digest };
}

interface ResourceLinkContent {
  type: 'resource_link';
  uri: string;
  size: number;
}

const validateReceipt = jsonSchemaValidator(
  JSON.parse(readFileSync(SHIPPED_SCHEMA_FILE, 'utf8')) as Record<string, unknown>,
);

describe('output that saves context (built server, STDIO, v1 SDK client, sandbox)', () => {
  let connection: V1Connection;
  let state: ReturnType<typeof makeTempWorkspace>;

  beforeAll(async () => {
    state = makeTempWorkspace('term-mcp-state-');
    // The byte cap binds first here; the line cap has its own server below.
    connection = await connectV1Client('stdio', {
      APPROVAL_MODE: 'sandboxed',
      TERM_MCP_STATE_DIR: state.root,
      TERM_MCP_RESULT_MAX_LINES: '100000',
    });
  });

  afterAll(async () => {
    await connection.close();
    state.remove();
  });

  async function execute(
    args: Record<string, unknown>,
  ): Promise<{ receipt: Receipt; text: string; links: ResourceLinkContent[] }> {
    const result = await connection.client.callTool({ name: 'terminal_execute', arguments: args });
    const content = result.content as Array<{ type: string; text?: string }>;
    return {
      receipt: result.structuredContent as unknown as Receipt,
      text: content[0]?.text ?? '',
      links: content.filter((item): item is ResourceLinkContent => item.type === 'resource_link'),
    };
  }

  async function readRange(uri: string, offset: number, length: number): Promise<Buffer> {
    const { contents } = await connection.client.readResource({ uri: `${uri}?offset=${offset}&length=${length}` });
    const [item] = contents as Array<{ text?: string; blob?: string }>;
    if (item?.blob !== undefined) return Buffer.from(item.blob, 'base64');
    return Buffer.from(item?.text ?? '', 'utf8');
  }

  test('a 50 MB command: a result within the cap plus 2 KiB, a valid receipt, first and last lines, the whole output as a resource', async () => {
    const expected = execFileSync('seq', ['1', String(LAST)], { maxBuffer: 64 * MIB });
    const { receipt, text, links } = await execute({ command: `seq 1 ${LAST}` });

    expect(receipt.status).toBe('succeeded');
    expect(validateReceipt(receipt)).toEqual({ valid: true, errors: [] });
    // The cap bounds the whole receipt (its JSON), so the result is within it; its text copy is indented JSON.
    expect(Buffer.byteLength(JSON.stringify(receipt))).toBeLessThanOrEqual(RESULT_CAP);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(RESULT_CAP + 2048);
    expect(receipt.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(receipt.stdout.endsWith(`\n${LAST - 1}\n${LAST}\n`)).toBe(true);
    expect(receipt.output_truncated).toBe(true);
    expect(receipt.output.stdout).toMatchObject({ total_bytes: expected.length, kept_bytes: expected.length });
    expect(receipt.stdout).toContain(`[... ${receipt.output.stdout.omitted_bytes} bytes omitted ...]`);
    expect(receipt.output.stdout.sha256).toBe(createHash('sha256').update(expected).digest('hex'));

    // The spool lives in this server's state directory, outside the workspace.
    const spools = readdirSync(path.join(state.root, 'output-spool'));
    expect(spools).toHaveLength(1);

    const [link] = links;
    expect(links).toHaveLength(1);
    expect(link).toMatchObject({ size: expected.length });
    const uri = link?.uri ?? '';

    // The whole output, page by page: its SHA-256 is the receipt's.
    const whole = createHash('sha256');
    for (let offset = 0; offset < expected.length; offset += MIB) whole.update(await readRange(uri, offset, MIB));
    expect(whole.digest('hex')).toBe(receipt.output.stdout.sha256);

    // Any slice, byte for byte.
    const random = seededRandom(24);
    for (let round = 0; round < 20; round += 1) {
      const offset = Math.floor(random() * expected.length);
      const length = 1 + Math.floor(random() * 70_000);
      expect((await readRange(uri, offset, length)).equals(expected.subarray(offset, offset + length))).toBe(true);
    }
    expect((await readRange(uri, expected.length - 8, 100)).equals(expected.subarray(expected.length - 8))).toBe(true);
  });

  test('a cut never falls inside a UTF-8 sequence, and a slice that does comes back exactly as base64', async () => {
    const line = 'héllo wörld ✓ 𝄞\n';
    const { receipt, links } = await execute({
      command: `python3 -c "import sys; sys.stdout.write('${line.replace('\n', '\\n')}' * 20000)"`,
    });
    const expected = Buffer.from(line.repeat(20_000), 'utf8');
    expect(receipt.stdout).not.toContain('\ufffd');
    expect(receipt.output.stdout.omitted_bytes).toBeGreaterThan(0);
    expect(Buffer.byteLength(receipt.stdout)).toBeLessThanOrEqual(RESULT_CAP);
    const uri = links[0]?.uri ?? '';
    for (const offset of [1, 2, 3, 17, 18, 19, 20]) {
      expect((await readRange(uri, offset, 10)).equals(expected.subarray(offset, offset + 10))).toBe(true);
    }
  });

  test('strip_ansi removes the escapes from the result, and the resource keeps the raw bytes', async () => {
    const { receipt, links } = await execute({ command: "printf '\\033[31mred\\033[0m plain\\n'", strip_ansi: true });
    expect(receipt.stdout).toBe('red plain\n');
    expect((await readRange(links[0]?.uri ?? '', 0, 100)).toString('utf8')).toBe('\u001b[31mred\u001b[0m plain\n');
  });

  test('bad ranges and unknown outputs are refused', async () => {
    const { links, receipt } = await execute({ command: 'echo short' });
    const uri = links[0]?.uri ?? '';
    await expect(connection.client.readResource({ uri: `${uri}?offset=999` })).rejects.toThrow(/past the end/);
    await expect(connection.client.readResource({ uri: `${uri}?length=${MIB + 1}` })).rejects.toThrow(/at most/);
    await expect(connection.client.readResource({ uri: `${uri}?offset=-1` })).rejects.toThrow(/whole number/);
    await expect(
      connection.client.readResource({
        uri: `terminal-output://${receipt.session_id}/00000000-0000-4000-8000-000000000000/stdout`,
      }),
    ).rejects.toThrow(/not found/i);
  });

  test('a session the client closes takes its output with it', async () => {
    const plan = (
      await connection.client.callTool({ name: 'terminal_plan', arguments: { command: 'echo kept until close' } })
    ).structuredContent as { session_id: string; id: string };
    const { links } = await execute({ session_id: plan.session_id, plan_id: plan.id });
    const uri = links[0]?.uri ?? '';
    expect((await readRange(uri, 0, 100)).toString()).toBe('kept until close\n');
    await connection.client.callTool({ name: 'terminal_session_close', arguments: { session_id: plan.session_id } });
    await expect(connection.client.readResource({ uri })).rejects.toThrow(/not found/i);
  });

  test('the spool is removed with the server', async () => {
    await connection.close();
    const directory = path.join(state.root, 'output-spool');
    expect(existsSync(directory) ? readdirSync(directory) : []).toEqual([]);
    connection = await connectV1Client('stdio', {
      APPROVAL_MODE: 'sandboxed',
      TERM_MCP_STATE_DIR: state.root,
      TERM_MCP_RESULT_MAX_LINES: '10',
    });
  });

  test('TERM_MCP_RESULT_MAX_LINES: the line cap keeps the first and the last lines when the bytes would fit', async () => {
    const { receipt } = await execute({ command: 'seq 1 1000' });
    expect(receipt.stdout).toBe(
      `1\n2\n3\n4\n5\n[... ${receipt.output.stdout.omitted_bytes} bytes omitted ...]\n996\n997\n998\n999\n1000\n`,
    );
    expect(receipt.output_truncated).toBe(true);
  });
});

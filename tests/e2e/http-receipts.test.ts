import { readFileSync } from 'node:fs';
import { receiptJsonSchema } from '../../src/application/receipts/receipt-document';
import { jsonSchemaValidator, SEED_KEY, seedReceipt, SHIPPED_SCHEMA_FILE } from '../support/receipt-fixtures';
import {
  modernHeaders,
  modernRequest,
  post,
  read,
  startTestServer,
  TOKEN,
  type Reply,
  type TestServer,
} from './http-harness';

const AUTH = { Authorization: `Bearer ${TOKEN}` };

describe('the receipt toolchain and info routes over HTTP', () => {
  let server: TestServer;
  /** A receipt of a real `terminal_execute` over POST /mcp. */
  let receipt: Record<string, unknown>;

  const get = async (path: string, headers: Record<string, string> = {}): Promise<Reply> =>
    read(await fetch(`${server.origin}${path}`, { headers }));
  const postTo = (path: string, body: unknown, headers: Record<string, string> = AUTH): Promise<Reply> =>
    post(`${server.origin}${path}`, body, headers);

  beforeAll(async () => {
    server = await startTestServer();
    const call = await post(
      server.url,
      modernRequest('tools/call', 1, { name: 'terminal_execute', arguments: { command: 'echo receipt over http' } }),
      modernHeaders('tools/call', 'terminal_execute'),
    );
    const result = (call.json?.result ?? {}) as { structuredContent?: Record<string, unknown> };
    if (!result.structuredContent) throw new Error(`terminal_execute failed: ${call.text}`);
    receipt = result.structuredContent;
  });

  afterAll(async () => {
    await server.stop();
  });

  describe('GET /schemas/receipt-1.0.json (public)', () => {
    test('serves the shipped schema, equal to the one derived from the zod receipt schema, without a token', async () => {
      const reply = await get('/schemas/receipt-1.0.json');
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/schema\+json/);
      expect(reply.json).toEqual(receiptJsonSchema());
      expect(reply.json).toEqual(JSON.parse(readFileSync(SHIPPED_SCHEMA_FILE, 'utf8')));
    });

    test('a receipt produced by a real terminal_execute validates against the served schema (ajv, draft 2020-12)', async () => {
      const validate = jsonSchemaValidator((await get('/schemas/receipt-1.0.json')).json ?? {});
      expect(receipt).toMatchObject({ status: 'succeeded', stdout: 'receipt over http\n' });
      expect(validate(receipt)).toEqual({ valid: true, errors: [] });
      expect(validate(seedReceipt())).toEqual({ valid: true, errors: [] });
      expect(validate({ ...receipt, injected: true }).valid).toBe(false);
    });

    test('is still behind the Origin guard', async () => {
      expect((await get('/schemas/receipt-1.0.json', { Origin: 'https://evil.example' })).status).toBe(403);
    });
  });

  test('GET /demo/scenarios is public and lists the seed scenarios', async () => {
    const reply = await get('/demo/scenarios');
    expect(reply.status).toBe(200);
    const scenarios = (reply.json?.scenarios ?? []) as Array<Record<string, unknown>>;
    expect(scenarios.map(({ id, command }) => ({ id, command }))).toEqual([
      { id: 'inspect-workspace', command: 'pwd' },
      { id: 'approval-cancel', command: 'sleep 15' },
      { id: 'catalog-overview', command: 'ls -la' },
    ]);
    for (const scenario of scenarios) {
      expect(scenario).toEqual(
        expect.objectContaining({
          title: expect.any(String),
          description: expect.any(String),
          label: scenario.title,
          outcome: scenario.description,
        }),
      );
    }
  });

  describe('GET /mcp/info (bearer)', () => {
    test('is refused without a token', async () => {
      expect((await get('/mcp/info')).status).toBe(401);
      expect((await get('/mcp/info', { Authorization: 'Bearer wrong-token-wrong-token-wrong-token' })).status).toBe(
        401,
      );
    });

    test('answers the seed fields plus the confinement', async () => {
      const reply = await get('/mcp/info', AUTH);
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({
        name: 'term-mcp',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        description: expect.any(String),
        protocol_version: '2026-07-28',
        supported_protocol_versions: expect.arrayContaining(['2026-07-28', '2025-11-25']),
        approval_mode: 'inspect',
        approval_channel: 'client',
        workspace: server.workspaceRoot,
        network_allowed: false,
        limits: { session_timeout_seconds: 3600, command_timeout_seconds: 20, max_output_bytes: 1048576 },
        transports: ['http', 'stdio'],
        authentication: { http: 'bearer', stdio: 'process-local' },
        model: {
          provider: 'deepseek',
          model: 'deepseek-chat',
          available: false,
          timeout_seconds: 20,
          max_retries: 2,
          max_tokens: 1024,
        },
        // inspect: the workspace is read-only inside the sandbox; /tmp is the sandbox's own.
        confinement: expect.objectContaining({
          sandbox: 'bubblewrap',
          network: 'off',
          writable_roots: ['/tmp'],
          process_group: true,
        }),
      });
    });
  });

  describe('POST /receipts/validate (bearer)', () => {
    test('is refused without a token, before the body is read (a body over the limit is 401, not 413)', async () => {
      expect((await postTo('/receipts/validate', receipt, {})).status).toBe(401);
      expect(
        (await postTo('/receipts/validate', { receipt: { ...receipt, stdout: 'x'.repeat(3_000_000) } }, {})).status,
      ).toBe(401);
    });

    test('a real receipt: 200, schema and signature valid (bare or wrapped in {receipt})', async () => {
      for (const body of [receipt, { receipt }]) {
        const reply = await postTo('/receipts/validate', body);
        expect(reply.status).toBe(200);
        expect(reply.json).toEqual({ schema_valid: true, signature_valid: true, errors: [] });
      }
    });

    test('a tampered receipt: 200 with signature_valid false', async () => {
      const reply = await postTo('/receipts/validate', { receipt: { ...receipt, exit_code: 1 } });
      expect(reply).toMatchObject({ status: 200, json: { schema_valid: true, signature_valid: false, errors: [] } });
    });

    test('a seed receipt signed with another key: 200 with signature_valid false', async () => {
      expect((await postTo('/receipts/validate', seedReceipt())).json).toEqual({
        schema_valid: true,
        signature_valid: false,
        errors: [],
      });
    });

    test('a schema-invalid receipt: 400 with the errors', async () => {
      const reply = await postTo('/receipts/validate', { ...receipt, status: 'running' });
      expect(reply.status).toBe(400);
      expect(reply.json).toEqual({
        schema_valid: false,
        signature_valid: false,
        errors: [expect.stringMatching(/^status: /)],
      });
    });

    test.each([
      ['an array', '[1,2]'],
      ['a string', '"receipt"'],
      ['invalid JSON', '{"id": '],
      ['an empty body', ''],
      ['a wrapped non-object', '{"receipt": 5}'],
    ])('%s: 400 receipt_object_required', async (_name, body) => {
      const reply = await postTo('/receipts/validate', body);
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ error: 'receipt_object_required' });
    });

    test('accepts bodies up to 2 MB (over MAX_REQUEST_BYTES), refuses larger ones with 413', async () => {
      const big = { ...receipt, stdout: 'x'.repeat(1_900_000) };
      const accepted = await postTo('/receipts/validate', { receipt: big });
      expect(accepted).toMatchObject({ status: 200, json: { schema_valid: true, signature_valid: false } });
      const refused = await postTo('/receipts/validate', { receipt: { ...receipt, stdout: 'x'.repeat(2_200_000) } });
      expect(refused.status).toBe(413);
      expect(refused.json).toMatchObject({ error: 'request_too_large' });
    });

    test('refuses a foreign Origin with 403 even with a valid token', async () => {
      expect((await postTo('/receipts/validate', receipt, { ...AUTH, Origin: 'https://evil.example' })).status).toBe(
        403,
      );
    });
  });

  describe('POST /receipts/redact (bearer)', () => {
    test('is refused without a token', async () => {
      expect((await postTo('/receipts/redact', { receipt }, {})).status).toBe(401);
    });

    test('returns the share-redacted copy, re-signed with the server key: it validates and is sharing_redacted', async () => {
      const reply = await postTo('/receipts/redact', { receipt });
      expect(reply.status).toBe(200);
      const redacted = reply.json?.receipt as Record<string, unknown>;
      expect(redacted).toMatchObject({
        id: receipt.id,
        sharing_redacted: true,
        command: '[REDACTED FOR SHARING]',
        cwd: '[REDACTED FOR SHARING]',
        stdout: '[REDACTED FOR SHARING]',
        stderr: '[REDACTED FOR SHARING]',
        policy: { argv: [] },
      });
      expect(JSON.stringify(redacted)).not.toContain(server.workspaceRoot);
      expect((await postTo('/receipts/validate', { receipt: redacted })).json).toEqual({
        schema_valid: true,
        signature_valid: true,
        errors: [],
      });
    });

    test('refuses a receipt that does not verify with the server key: 400 with the seed message', async () => {
      for (const body of [{ receipt: { ...receipt, stdout: 'edited' } }, { receipt: { ...receipt, extra: 1 } }]) {
        const reply = await postTo('/receipts/redact', body);
        expect(reply.status).toBe(400);
        expect(reply.json).toMatchObject({ error: 'only a valid signed receipt can be redacted for sharing' });
      }
      expect((await postTo('/receipts/redact', '[]')).json).toMatchObject({ error: 'receipt_object_required' });
    });
  });
});

describe('a server whose receipt key is the seed token', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ TERM_MCP_RECEIPT_KEY: SEED_KEY });
  });

  afterAll(async () => {
    await server.stop();
  });

  test('verifies and redacts the seed receipts', async () => {
    const validated = await post(`${server.origin}/receipts/validate`, { receipt: seedReceipt() }, AUTH);
    expect(validated.json).toEqual({ schema_valid: true, signature_valid: true, errors: [] });
    const redacted = await post(`${server.origin}/receipts/redact`, seedReceipt(), AUTH);
    expect(redacted.status).toBe(200);
    expect(redacted.json?.receipt).toMatchObject({
      sharing_redacted: true,
      signature: '4029b5d9709b207b2a07d989d57c60e73efea81142e00e660e8860098928d2d7',
    });
  });
});

describe('the receipt routes share the rate limit of the rest', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '3' });
  });

  afterAll(async () => {
    await server.stop();
  });

  test('the fourth authenticated request of the minute is 429 with Retry-After', async () => {
    const statuses: number[] = [];
    let last: Reply | undefined;
    for (let index = 0; index < 4; index += 1) {
      last = await post(`${server.origin}/receipts/validate`, { receipt: seedReceipt() }, AUTH);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last?.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createTermMcp, type TermMcp } from '../../src/index';
import { SEED_KEY, seedReceipt } from '../support/receipt-fixtures';
import { makeTempWorkspace } from '../support/workspace';

const TOKEN = 'embedding-test-token-that-is-longer-than-32-chars';

describe('createTermMcp: the receipt routes under a host prefix', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  let termMcp: TermMcp;
  let server: Server;
  let base: string;

  beforeEach(async () => {
    workspace = makeTempWorkspace();
    termMcp = createTermMcp({
      env: {
        WORKSPACE_ROOT: workspace.root,
        TERM_MCP_TOKEN: TOKEN,
        TERM_MCP_RECEIPT_KEY: SEED_KEY,
        LOG_LEVEL: 'error',
      },
    });
    const host = express();
    host.use('/terminal', termMcp.httpApp());
    server = createServer(host);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/terminal`;
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await termMcp.close();
    workspace.remove();
  });

  const validate = (body: unknown): Promise<Response> =>
    fetch(`${base}/receipts/validate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  test('serves the schema and the demo scenarios under the prefix', async () => {
    expect((await fetch(`${base}/schemas/receipt-1.0.json`)).status).toBe(200);
    expect(((await (await fetch(`${base}/demo/scenarios`)).json()) as { scenarios: unknown[] }).scenarios).toHaveLength(
      3,
    );
  });

  test('verifies with the configured key, and reads receipt bodies over MAX_REQUEST_BYTES (the body-limit exception holds under a prefix)', async () => {
    expect(await (await validate({ receipt: seedReceipt() })).json()).toEqual({
      schema_valid: true,
      signature_valid: true,
      errors: [],
    });
    const large = await validate({ receipt: { ...seedReceipt(), stdout: 'x'.repeat(200_000) } });
    expect(large.status).toBe(200);
    expect(await large.json()).toEqual({ schema_valid: true, signature_valid: false, errors: [] });
    // Other routes keep the transport's limit (64 KiB by default).
    const mcp = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ padding: 'x'.repeat(200_000) }),
    });
    expect(mcp.status).toBe(413);
  });
});

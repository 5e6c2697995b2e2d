// term-mcp without a transport: the composition root from dist/ and its dispatcher, called directly with modern
// JSON-RPC requests. Used where a benchmark must see the server's own cost (execute) or its own heap (memory), and
// to fetch term-mcp's tool catalog for the reference servers to mirror.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_TOKEN, modernRequest, ROOT } from './support.mjs';

const dist = (relative) => import(pathToFileURL(path.join(ROOT, 'dist', relative)).href);

/** Builds a term-mcp container for `workspace` with `env` on top of quiet defaults; returns a small client. */
export async function startInProcess(workspace, env = {}) {
  const [{ loadConfig }, { buildContainer, shutdownTerminal }, { TYPES }, { LegacyHandshake }] = await Promise.all([
    dist('main/config.js'),
    dist('main/container.js'),
    dist('main/types.js'),
    dist('application/mcp/connection-state.js'),
  ]);
  const config = loadConfig(
    { WORKSPACE_ROOT: workspace, LOG_LEVEL: 'error', TERM_MCP_RECEIPT_KEY: BENCH_TOKEN, ...env },
    {},
    workspace,
  );
  const container = buildContainer(config);
  const dispatcher = container.get(TYPES.Dispatcher);
  let nextId = 1;
  /** One modern request through the dispatcher; resolves with the whole JSON-RPC answer. */
  const request = (method, params = {}) =>
    dispatcher.handle(modernRequest(nextId++, method, params), {
      transport: 'stdio',
      handshake: new LegacyHandshake(),
    });
  return {
    container,
    TYPES,
    request,
    callTool: (name, args) => request('tools/call', { name, arguments: args }),
    close: () => shutdownTerminal(container),
  };
}

/** Writes term-mcp's tools/list (its tool descriptors) to `file`, for the reference servers to mirror. */
export async function writeToolCatalog(file, workspace) {
  const server = await startInProcess(workspace);
  try {
    const listed = await server.request('tools/list');
    writeFileSync(file, JSON.stringify(listed.result.tools));
  } finally {
    await server.close();
  }
  return file;
}

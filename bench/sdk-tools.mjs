// term-mcp's own tool definitions registered on an SDK `McpServer` (v1 or v2: both have `registerTool`), for the
// SDK reference servers (bench/sdk-server.mjs, bench/sdk-v1-server.mjs). One shared term-mcp composition root built
// from dist/, so the reference runs the same tool code and catalog shapes as term-mcp; only the protocol layer and
// the transport differ.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startInProcess } from './in-process.mjs';
import { ROOT } from './support.mjs';

const { DomainError } = await import(pathToFileURL(path.join(ROOT, 'dist', 'domain', 'errors.js')).href);
const { toolErrorResult } = await import(
  pathToFileURL(path.join(ROOT, 'dist', 'application', 'tools', 'tool-catalog.js')).href
);

const termMcp = await startInProcess(process.env.WORKSPACE_ROOT ?? process.cwd());
const tools = termMcp.container.get(termMcp.TYPES.Tools);

/** term-mcp's ToolCatalog.call, minus the input parsing the SDK already did with the same zod schema. */
async function callTool(tool, args, signal, era) {
  try {
    const outcome = await tool.call(args, { signal, era, principal: undefined });
    return {
      content: [{ type: 'text', text: outcome.text ?? JSON.stringify(outcome.structured, null, 2) }],
      structuredContent: outcome.structured,
      isError: outcome.isError ?? false,
    };
  } catch (error) {
    if (error instanceof DomainError)
      return toolErrorResult(error.code, error.message, error.nextStep, { ...error.details });
    throw error;
  }
}

/**
 * Registers every terminal tool on `server`. `signalOf` reads the call's abort signal from the SDK's handler context
 * (v1: `extra.signal`; v2: `ctx.mcpReq.signal`); `era` is what term-mcp's tools are told.
 */
export function registerTermMcpTools(server, { era, signalOf }) {
  for (const tool of tools) {
    const { name, title, description, input, output, annotations } = tool;
    // The v1 SDK reads an output schema's object shape; a union of objects (terminal_execute: a receipt, or a
    // command still running) makes it fail every call, so such a tool is registered without one there.
    const outputSchema = era === 'legacy' && output?.def?.type === 'union' ? undefined : output;
    server.registerTool(
      name,
      { title, description, inputSchema: input, outputSchema, annotations: { title, ...annotations } },
      (args, context) => callTool(tool, args, signalOf(context), era),
    );
  }
  return server;
}

/** Stops the shared composition root (its sessions and their processes). */
export function closeTermMcp() {
  return termMcp.close();
}

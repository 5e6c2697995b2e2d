import type { ServerInfo } from '../application/mcp/server-identity.js';

/** Kept equal to package.json's version by tests/main/server-info.test.ts (no import.meta: jest runs CJS). */
export const TERM_MCP_VERSION = '0.1.0';

export const SERVER_INFO: ServerInfo = Object.freeze({
  name: 'term-mcp',
  version: TERM_MCP_VERSION,
  title: 'term-mcp: safe terminal tools',
});

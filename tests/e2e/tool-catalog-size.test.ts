import { modern, StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';

/**
 * Issue 23 item 7: every client pays for `tools/list` in every conversation. It was 38,643 bytes (about 9,700 tokens
 * at 4 bytes a token) for the 12 tools; it must stay within a quarter of that, with what a model needs kept: each
 * tool's name, title, description, strict input schema with its field descriptions, and hints.
 */
const BEFORE_ISSUE_23_BYTES = 38_643;
/** Issue 24 adds the two terminal-session tools (terminal_open, terminal_screen) with a budget of their own. */
const TERMINAL_SESSION_TOOLS = ['terminal_open', 'terminal_screen'];
const TERMINAL_SESSION_TOOLS_BYTES = 3_600;

describe('the tool catalogue of the built server', () => {
  test('tools/list is at most a quarter of its size before issue 23, and keeps what a model needs', async () => {
    const workspace = makeTempWorkspace();
    const peer = new StdioPeer({ WORKSPACE_ROOT: workspace.root, LOG_LEVEL: 'error' });
    try {
      const reply = await peer.request(modern('tools/list', 1), 30_000);
      const tools = (reply.result as { tools: Array<Record<string, unknown>> }).tools;
      const sessionTools = tools.filter((tool) => TERMINAL_SESSION_TOOLS.includes(String(tool.name)));
      const sessionToolBytes = sessionTools.reduce((sum, tool) => sum + Buffer.byteLength(JSON.stringify(tool)) + 1, 0);
      const bytes = Buffer.byteLength(JSON.stringify(reply));
      expect(bytes - sessionToolBytes).toBeLessThanOrEqual(BEFORE_ISSUE_23_BYTES / 4);
      expect(sessionToolBytes).toBeLessThanOrEqual(TERMINAL_SESSION_TOOLS_BYTES);
      expect(tools).toHaveLength(12 + TERMINAL_SESSION_TOOLS.length);
      expect(sessionTools).toHaveLength(TERMINAL_SESSION_TOOLS.length);
      for (const tool of tools) {
        expect(tool).toEqual({
          name: expect.stringMatching(/^terminal_/),
          title: expect.any(String),
          description: expect.any(String),
          inputSchema: expect.objectContaining({ type: 'object', additionalProperties: false }),
          outputSchema: { type: 'object' },
          annotations: { readOnlyHint: expect.any(Boolean), destructiveHint: expect.any(Boolean) },
        });
        const properties = (tool.inputSchema as { properties: Record<string, { description?: string }> }).properties;
        for (const [field, schema] of Object.entries(properties))
          expect({ field, described: typeof schema.description }).toEqual({ field, described: 'string' });
      }
    } finally {
      await peer.end();
      workspace.remove();
    }
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { modern, StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';

/**
 * `term-mcp stdio` keeps V8's young generation at its initial size (src/main/heap-tuning.ts): start-up would
 * otherwise grow it to 8 MiB, most of it empty, in every idle STDIO server. A module preloaded with NODE_OPTIONS
 * reports the real server's heap spaces when it exits.
 */
describe('term-mcp stdio heap', () => {
  test('the young generation stays at its initial 2 MiB through start-up, tools/list and a command', async () => {
    const workspace = makeTempWorkspace();
    const scratch = makeTempWorkspace('term-mcp-heap-');
    const report = path.join(scratch.root, 'heap.json');
    const probe = path.join(scratch.root, 'probe.mjs');
    writeFileSync(
      probe,
      "import { writeFileSync } from 'node:fs';\n" +
        "import { getHeapSpaceStatistics } from 'node:v8';\n" +
        "process.on('exit', () => writeFileSync(process.env.HEAP_REPORT, JSON.stringify(getHeapSpaceStatistics())));\n",
    );
    const peer = new StdioPeer({ WORKSPACE_ROOT: workspace.root, TERM_MCP_SANDBOX: 'off', LOG_LEVEL: 'error', NODE_OPTIONS: `--import=${probe}`, HEAP_REPORT: report });
    try {
      const listed = await peer.request(modern('tools/list', 1), 30_000);
      expect(Array.isArray(listed.result?.tools)).toBe(true);
      const executed = await peer.request(modern('tools/call', 2, { name: 'terminal_execute', arguments: { command: 'echo hi' } }), 30_000);
      expect(executed.result).toMatchObject({ isError: false, structuredContent: { stdout: 'hi\n' } });
      expect(await peer.end()).toBe(0);

      const spaces = JSON.parse(readFileSync(report, 'utf8')) as Array<{ space_name: string; space_size: number; space_used_size: number }>;
      const youngGeneration = spaces.find((space) => space.space_name === 'new_space');
      const oldGeneration = spaces.find((space) => space.space_name === 'old_space');
      // The report is the real server's: its old generation holds the loaded server (megabytes of schemas and code).
      expect(oldGeneration?.space_used_size).toBeGreaterThan(4 * 2 ** 20);
      expect(youngGeneration?.space_size).toBeLessThanOrEqual(2 * 2 ** 20);
    } finally {
      peer.kill();
      workspace.remove();
      scratch.remove();
    }
  }, 60_000);
});

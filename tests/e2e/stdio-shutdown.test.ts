import { waitFor } from '../adapters/process/process-probe';
import { livePidsRunning } from '../support/live-processes';
import { modern, StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';

describe('term-mcp stdio shutdown', () => {
  test('on stdin EOF it kills a command still running in the background and exits 0', async () => {
    const workspace = makeTempWorkspace();
    // A duration no other process on the machine uses, so the /proc scan finds only ours.
    const marker = ['/usr/bin/sleep', String(3000 + (process.pid % 997))];
    const peer = new StdioPeer({ WORKSPACE_ROOT: workspace.root, APPROVAL_MODE: 'trusted' });
    try {
      const started = await peer.request(
        modern('tools/call', 'bg', {
          name: 'terminal_execute',
          arguments: { command: `sleep ${marker[1]}`, wait_seconds: 0 },
        }),
      );
      expect(started.result).toMatchObject({ isError: false, structuredContent: { status: 'running' } });
      // The sandbox execs the command a few milliseconds after the launcher started.
      await waitFor(() => livePidsRunning(marker).length === 1, 'the sandboxed sleep to run', 10_000);

      expect(await peer.end()).toBe(0);
      expect(livePidsRunning(marker)).toEqual([]);
    } finally {
      peer.kill();
      workspace.remove();
    }
  });
});

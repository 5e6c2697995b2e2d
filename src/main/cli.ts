#!/usr/bin/env node
import { runCli } from './run-cli.js';

/**
 * Resolves once everything written to the stream so far has been handed to the system (pipes and files are
 * synchronous on Linux; elsewhere a pipe may still hold data).
 */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) resolve();
    else stream.write('', () => resolve());
  });
}

/**
 * The `term-mcp` executable: the process's real arguments and streams, handed to the dispatcher (run-cli.ts). Once
 * the command is done (every session closed, every answer written), the process exits at once: left to end by
 * itself, Node first waits for V8's background tasks and then frees the whole heap, page by page, which made exiting
 * on stdin EOF cost ~30 ms (docs/performance-notes.md, issue 22).
 */
runCli(process.argv.slice(2), { env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr }).then(async (code) => {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
});

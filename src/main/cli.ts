#!/usr/bin/env node
import { closeInheritedDescriptors } from '../adapters/process/inherited-descriptors.js';
import { runCli } from '../adapters/cli/run-cli.js';
import { CLI_SERVICES } from './cli-services.js';

// Before anything can spawn: only stdin, stdout and stderr may reach the commands (docs/security.md).
closeInheritedDescriptors(ipcChannelDescriptor());

/** Node's IPC channel, when a parent forked the server with one: the server's own, kept open. */
function ipcChannelDescriptor(): number[] {
  const channel = (process as { channel?: { fd?: unknown } }).channel;
  return typeof channel?.fd === 'number' ? [channel.fd] : [];
}

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

async function exitWhenFlushed(code: number): Promise<void> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

/**
 * The `term-mcp` executable: the composition root hands the CLI adapter (adapters/cli/run-cli.ts) the process's real
 * arguments and streams and the services it drives (cli-services.ts: the runners, the policy, the receipt key). Once
 * the command is done (every session closed, every answer written), the process exits at once: left to end by
 * itself, Node first waits for V8's background tasks and then frees the whole heap, page by page, which made exiting
 * on stdin EOF cost ~30 ms (docs/performance-notes.md, issue 22).
 */
runCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
  services: CLI_SERVICES,
}).then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => {
    // runCli answers every failure it knows with an exit code; anything else is a bug, reported without a stack dump.
    process.stderr.write(`term-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return exitWhenFlushed(1);
  },
);

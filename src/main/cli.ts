#!/usr/bin/env node
import { closeInheritedDescriptors } from '../adapters/process/inherited-descriptors.js';
import { runCli } from './run-cli.js';

// Before anything can spawn: only stdin, stdout and stderr may reach the commands (docs/security.md).
closeInheritedDescriptors(ipcChannelDescriptor());

/** Node's IPC channel, when a parent forked the server with one: the server's own, kept open. */
function ipcChannelDescriptor(): number[] {
  const channel = (process as { channel?: { fd?: unknown } }).channel;
  return typeof channel?.fd === 'number' ? [channel.fd] : [];
}

/** The `term-mcp` executable: the process's real arguments and streams, handed to the dispatcher (run-cli.ts). */
runCli(process.argv.slice(2), { env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // runCli answers every failure it knows with an exit code; anything else is a bug, reported without a stack dump.
    process.stderr.write(`term-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);

#!/usr/bin/env node
import { runCli } from './run-cli.js';

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

#!/usr/bin/env node
import { keepYoungGenerationSmall } from './heap-tuning.js';
import { runCli, splitCommand } from './run-cli.js';

/** The `term-mcp` executable: the process's real arguments and streams, handed to the dispatcher (run-cli.ts). */
const argv = process.argv.slice(2);
if (splitCommand(argv).name === 'stdio') keepYoungGenerationSmall();
runCli(argv, { env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr }).then((code) => {
  process.exitCode = code;
});

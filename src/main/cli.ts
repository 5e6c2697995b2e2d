#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { ConfigurationError } from '../domain/errors.js';
import { CliUsageError, parseCliArguments, USAGE } from './cli-args.js';
import { loadConfig } from './config.js';
import { TERM_MCP_VERSION } from './server-info.js';
import { runStdio } from './run-stdio.js';

/** The `term-mcp` command. Exit codes: 0 ok, 1 runtime failure, 2 usage or configuration error. */
async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === 'doctor') {
    const { runDoctor } = await import('./commands/doctor-command.js');
    return runDoctor(argv.slice(1), { env: process.env, cwd: process.cwd(), nodeVersion: process.version, write: (text) => process.stdout.write(text) });
  }
  const { command, flags } = parseCliArguments(argv);
  switch (command) {
    case 'version':
      process.stdout.write(`${TERM_MCP_VERSION}\n`);
      return 0;
    case 'token':
      process.stdout.write(`${randomBytes(32).toString('base64url')}\n`);
      return 0;
    case 'help':
      process.stdout.write(USAGE);
      return 0;
    case 'stdio':
      return runStdio(loadConfig(process.env, flags));
    case 'http': {
      const { runHttp } = await import('./run-http.js');
      return runHttp(loadConfig(process.env, flags));
    }
    default:
      throw new CliUsageError(`unknown command: ${command}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CliUsageError) {
      process.stderr.write(`term-mcp: ${error.message}\n\n${USAGE}`);
    } else if (error instanceof ConfigurationError) {
      process.stderr.write(`term-mcp: configuration error: ${error.message}\n`);
    } else {
      process.stderr.write(`term-mcp: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
      return;
    }
    process.exitCode = 2;
  },
);

import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SpoolSettings } from '../adapters/process/stream-spool.js';
import { isAtOrBelow } from '../domain/workspace/path-containment.js';
import type { Config } from './config.js';

/**
 * Where commands spool their whole output (issue 24): `<state dir>/output-spool/<pid>-<random>`, else under the
 * system's temp directory; one directory per server process, so servers sharing a state directory never meet, and
 * removed whole when the server stops. Never inside the workspace, where a command could read or replace the spool
 * (the sandbox also hides the state directory and gives each command its own /tmp). None (only the capped capture is
 * kept) when TERM_MCP_OUTPUT_SPOOL_BYTES is 0 or no such directory exists outside the workspace.
 */
export function outputSpoolSettings(config: Config): SpoolSettings | undefined {
  if (config.outputSpoolBytes === 0) return undefined;
  const base = realPathOr(config.stateDir ?? os.tmpdir());
  const directory = path.join(base, 'output-spool', `${process.pid}-${randomBytes(6).toString('hex')}`);
  if (isAtOrBelow(config.workspaceRoot, directory)) return undefined;
  return Object.freeze({ directory, maxBytesPerStream: config.outputSpoolBytes });
}

/** Compared with the workspace's real path: a base reached through a link into the workspace is inside it. */
function realPathOr(directory: string): string {
  try {
    return realpathSync(directory);
  } catch {
    return directory;
  }
}

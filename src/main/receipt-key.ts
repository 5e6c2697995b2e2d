import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';

/** The persistent signing key's file in the state directory. */
export const RECEIPT_KEY_FILE = 'receipt-key';
const KEY_BYTES = 32;
const NO_FOLLOW = constants.O_NOFOLLOW;

/** Where a receipt key came from (doctor and the start-up log say which). */
export type ReceiptKeySource =
  | { readonly kind: 'configured' }
  | { readonly kind: 'state'; readonly file: string; readonly created: boolean }
  | { readonly kind: 'process'; readonly problem: string };

/**
 * The key that signs receipts: the configured one (TERM_MCP_RECEIPT_KEY, AUTH_TOKEN, TERM_MCP_TOKEN), else the
 * persistent key of the state directory, created on first start (0600, exclusively, never through a link), so that
 * receipts verify across restarts (issue 23 item 4). When the state directory cannot hold it, a random key for this
 * process alone, and the problem is reported.
 */
export function receiptKey(
  configured: string | undefined,
  stateDir: string | undefined,
): { key: string; source: ReceiptKeySource } {
  if (configured !== undefined) return { key: configured, source: { kind: 'configured' } };
  if (stateDir === undefined) {
    const problem = 'the default state directory is inside the workspace (a workspace of / or of the home directory)';
    return { key: randomBytes(KEY_BYTES).toString('hex'), source: { kind: 'process', problem } };
  }
  const file = path.join(stateDir, RECEIPT_KEY_FILE);
  try {
    const existing = readStateKey(stateDir);
    if (existing !== undefined) return { key: existing, source: { kind: 'state', file, created: false } };
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    const key = randomBytes(KEY_BYTES);
    // O_EXCL: two servers starting at once do not both write; the loser reads the winner's key.
    let fd: number;
    try {
      fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o600);
    } catch (error) {
      const raced = readStateKey(stateDir);
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && raced !== undefined)
        return { key: raced, source: { kind: 'state', file, created: false } };
      throw error;
    }
    try {
      writeSync(fd, key.toString('hex'));
    } finally {
      closeSync(fd);
    }
    return { key: key.toString('hex'), source: { kind: 'state', file, created: true } };
  } catch (error) {
    const problem = `${file}: ${error instanceof Error ? error.message : String(error)}`;
    return { key: randomBytes(KEY_BYTES).toString('hex'), source: { kind: 'process', problem } };
  }
}

/**
 * The state directory's key, or undefined when there is none yet. Opened without following a link; a key file that
 * is not a regular file, or is readable by others, is refused (it would be a key anyone could sign with).
 */
export function readStateKey(stateDir: string): string | undefined {
  const file = path.join(stateDir, RECEIPT_KEY_FILE);
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | NO_FOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EINVAL' });
    if ((stats.mode & 0o077) !== 0)
      throw Object.assign(new Error(`mode ${(stats.mode & 0o777).toString(8)}, must be 0600`), { code: 'EPERM' });
    const buffer = Buffer.alloc(KEY_BYTES * 2);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, length).toString('utf8').trim();
    if (!/^[0-9a-f]{64}$/.test(text)) throw Object.assign(new Error('not a term-mcp receipt key'), { code: 'EINVAL' });
    return text;
  } finally {
    closeSync(fd);
  }
}

/**
 * The configuration with the key that signs this server's receipts in `receiptKey` (the configured one or the state
 * directory's), so the signer, the redactor and HTTP's generated-token fallback all see it. Problems are written to
 * `warn` (the key of this process alone then signs).
 */
export function withReceiptKey(config: Config, warn: (line: string) => void): Config {
  const { key, source } = receiptKey(config.receiptKey, config.stateDir);
  if (source.kind === 'process') {
    // One JSON log line, like every other diagnostic on stderr.
    const message =
      'the receipt key cannot be kept in the state directory: receipts are signed with a key of this process alone and will not verify after a restart (set TERM_MCP_STATE_DIR or TERM_MCP_RECEIPT_KEY)';
    warn(`${JSON.stringify({ time: new Date().toISOString(), level: 'warn', message, problem: source.problem })}\n`);
  }
  return Object.freeze({ ...config, receiptKey: key });
}

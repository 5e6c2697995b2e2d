import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { isAtOrBelow } from '../../domain/workspace/path-containment.js';

/** Directories that are never a home to hide, whatever the passwd database says (daemons often point there). */
const SYSTEM_DIRECTORIES = new Set([
  '/',
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/opt',
  '/proc',
  '/run',
  '/sbin',
  '/srv',
  '/sys',
  '/tmp',
  '/usr',
  '/var',
  '/nonexistent',
]);
/** Where the passwd database starts ordinary users (login.defs UID_MIN), and the nobody user, who has no home. */
const FIRST_USER_UID = 1000;
const NOBODY_UID = 65534;

/** The real directory, when it is one; undefined for anything else (missing, a file, unreadable). */
function existingDirectory(candidate: string): string | undefined {
  try {
    const real = realpathSync(candidate);
    return statSync(real).isDirectory() && !SYSTEM_DIRECTORIES.has(real) ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The home directory of the user the server runs as, from the passwd database (never $HOME, which a launcher may set
 * anywhere). Undefined when the database has no entry.
 */
export function serverUserHome(): string | undefined {
  try {
    return userInfo().homedir;
  } catch {
    return undefined;
  }
}

/** Homes of root and of ordinary users (uid >= 1000) in /etc/passwd, plus whatever sits in /home and /root itself. */
function knownHomes(): string[] {
  const homes = ['/root'];
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [, , uid, , , home] = line.split(':');
      const id = Number(uid);
      if (home !== undefined && home.startsWith('/') && (id === 0 || (id >= FIRST_USER_UID && id !== NOBODY_UID)))
        homes.push(home);
    }
  } catch {
    // No passwd database: /root and /home still count.
  }
  try {
    for (const entry of readdirSync('/home')) homes.push(path.join('/home', entry));
  } catch {
    // No /home.
  }
  return homes;
}

/**
 * Every home directory the sandbox hides: the server user's (passwd), `environmentHome` ($HOME) when it differs,
 * root's, and the other users' (passwd, /home). Real paths, existing directories only, no system directory, none
 * at or below the workspace (which is visible by design), sorted so a home is hidden before one inside it.
 */
export function homesToHide(environmentHome: string | undefined, workspaceRoot: string): string[] {
  const candidates = [serverUserHome(), environmentHome, ...knownHomes()].filter(
    (home): home is string => home !== undefined,
  );
  const homes = new Set<string>();
  for (const candidate of candidates) {
    const real = existingDirectory(candidate);
    if (real === undefined) continue;
    if (!isAtOrBelow(workspaceRoot, real)) homes.add(real);
  }
  return [...homes].sort();
}

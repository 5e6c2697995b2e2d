import type { LaunchForm } from '../policy/policy-types.js';

/*
 * What the policy judges against and what the launch really uses must be the same facts: the directories a command
 * name resolves in, and the shell the shell form runs through. They live here, once, for the policy's path
 * inspector, the process adapter's environment and both confinements.
 */

/** The one shell the shell form runs through: fixed, never taken from the environment. */
export const FIXED_SHELL = '/bin/sh';

/** The only directories executables are taken from, in order: never the server's PATH, never the workspace. */
export const TRUSTED_EXECUTABLE_DIRECTORIES: readonly string[] = Object.freeze([
  '/usr/local/bin',
  '/usr/bin',
  '/bin',
  '/usr/sbin',
  '/sbin',
]);

/** The PATH every command gets: the same directories, so a workspace directory can never shadow a tool. */
export const TRUSTED_PATH = TRUSTED_EXECUTABLE_DIRECTORIES.join(':');

/** The argv a launch form runs as: the argv form as it is, the shell form through the fixed shell. */
export function commandArgv(launch: LaunchForm): string[] {
  return launch.kind === 'shell' ? [FIXED_SHELL, '-c', launch.script] : [...launch.argv];
}

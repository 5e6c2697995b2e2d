import path from 'node:path';
import {
  NON_INTERACTIVE_ENVIRONMENT,
  type NonInteractiveEnvironment,
} from '../../domain/execution/non-interactive-environment.js';
import { TRUSTED_PATH } from '../../domain/execution/trusted-launch.js';

/** Locale, terminal and temp settings are harmless and make tools behave as the user expects. */
const INHERITED_VARIABLES = ['LANG', 'LC_ALL', 'LC_CTYPE', 'TERM', 'TZ', 'TMPDIR'] as const;

/**
 * The whole environment a command gets. An allowlist, not a denylist: tokens and API keys of the server
 * (TERM_MCP_TOKEN, DEEPSEEK_API_KEY, ...) never reach a child because nothing outside the list is copied. The
 * non-interactive settings (pager, editor, prompts; the policy file may change their values) come before PATH, HOME
 * and the git isolation, which nothing overrides.
 */
export function scrubEnvironment(
  serverEnv: Readonly<Record<string, string | undefined>>,
  cwd: string,
  sessionRoot: string = cwd,
  nonInteractive: NonInteractiveEnvironment = NON_INTERACTIVE_ENVIRONMENT,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of INHERITED_VARIABLES) {
    const value = serverEnv[name];
    if (value !== undefined) environment[name] = value;
  }
  return {
    ...environment,
    ...nonInteractive,
    PATH: TRUSTED_PATH,
    HOME: cwd,
    PWD: cwd,
    TERM_MCP_SANDBOX: '1',
    ...gitIsolation(sessionRoot),
  };
}

/**
 * Git reads config (which can name programs: core.pager, core.fsmonitor, aliases) from the user's and the system's
 * files and looks for repositories in parent directories. Commands see neither: only the workspace's own repository.
 */
function gitIsolation(sessionRoot: string): Record<string, string> {
  return {
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CEILING_DIRECTORIES: path.dirname(sessionRoot),
  };
}

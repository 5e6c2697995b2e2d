import { isOnHardFloor } from '../command-catalog.js';
import type { Word } from '../../shell/shell-ast.js';
import { deny, judgeByMode, type JudgeContext, type Judgement } from './judgement.js';

/** Seed network operations (anywhere in the arguments), plus subcommands that download and run packages. */
const NETWORK_OPERATIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  npm: new Set(['add', 'install', 'i', 'update', 'up', 'upgrade', 'ci', 'exec', 'x', 'create', 'init', 'publish']),
  pnpm: new Set(['add', 'install', 'i', 'update', 'up', 'upgrade', 'ci', 'exec', 'dlx', 'create', 'init', 'publish']),
  yarn: new Set(['add', 'install', 'i', 'update', 'up', 'upgrade', 'ci', 'exec', 'dlx', 'create', 'init', 'publish']),
  cargo: new Set(['add', 'fetch', 'install', 'update', 'publish']),
  go: new Set(['get', 'install', 'mod']),
  uv: new Set(['add', 'pip', 'sync', 'run', 'lock', 'tool']),
};

export function requestsNetwork(executable: string, args: readonly Word[]): boolean {
  const operations = NETWORK_OPERATIONS[executable];
  if (!operations) return false;
  // A bare `yarn` installs dependencies.
  if (executable === 'yarn' && args.every((word) => word.value.startsWith('-'))) return true;
  return args.some((word) => operations.has(word.value));
}

/** Subcommands that run a named program: `npm exec X`, `pnpm dlx X`, `uv run X`, `uv tool run X`. */
const RUNNER_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  npm: ['exec', 'x'],
  pnpm: ['exec', 'dlx'],
  yarn: ['exec', 'dlx'],
  uv: ['run'],
};

/**
 * A hard-floor program named after a runner subcommand. Option values cannot be told from the program name
 * (`npm exec -p pkg -- sh`), so every later word counts: a false alarm is a denial, never an escape.
 */
function floorProgramAfterRunner(executable: string, args: readonly Word[]): string | null {
  const subcommands = RUNNER_SUBCOMMANDS[executable];
  const index = args.findIndex((word) => subcommands?.includes(word.value));
  if (!subcommands || index === -1) return null;
  return args.slice(index + 1).find((word) => isOnHardFloor(word.value))?.value ?? null;
}

export function judgeDevelopment(executable: string, args: readonly Word[], context: JudgeContext): Judgement {
  const networkRequested = requestsNetwork(executable, args);
  const facts = { networkRequested, executesProjectCode: true };
  // A package manager must not become a way around the floor: `uv run python -c ...`, `npm exec -- sh -c ...`.
  const target = floorProgramAfterRunner(executable, args);
  if (target !== null) {
    return deny('always_blocked', `${target} is outside the safe command surface`, facts);
  }
  if (context.settings.mode === 'inspect') {
    return deny('development_command', 'development commands require confirm or trusted mode', facts);
  }
  if (networkRequested && !context.settings.allowNetwork) {
    return deny('network_dependency_operation', 'network-capable dependency operations are disabled', facts);
  }
  return judgeByMode(
    context.settings.mode,
    {
      risk: 'medium',
      rule: 'development_command',
      reason: 'development command may execute project-defined code',
      inspectReason: 'development commands require confirm or trusted mode',
    },
    facts,
  );
}

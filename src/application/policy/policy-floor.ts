import {
  DEVELOPMENT_COMMANDS,
  LONG_RUNNING_COMMANDS,
  READ_ONLY_COMMANDS,
  SHELL_KEYWORDS,
  WRITE_COMMANDS,
  isOnHardFloor,
} from './command-catalog.js';
import type { PolicySettings } from './policy-settings.js';

/** A plain command name: no path, no shell syntax, no whitespace. */
const COMMAND_NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._+-]*$/;

export type CommandListName = 'extraReadOnlyCommands' | 'approvalCommands' | 'deniedCommands';

export interface FloorViolation {
  readonly list: CommandListName;
  readonly index: number;
  readonly message: string;
}

/**
 * Checks that settings only tighten the built-in policy. Denying anything is always fine; making a command
 * read-only or approvable must not reach the hard floor, and commands with their own rules keep them.
 */
export function findFloorViolation(settings: PolicySettings): FloorViolation | null {
  for (const [index, name] of settings.extraReadOnlyCommands.entries()) {
    const message = readOnlyProblem(name, settings);
    if (message) return { list: 'extraReadOnlyCommands', index, message };
  }
  for (const [index, name] of settings.approvalCommands.entries()) {
    const message = approvalProblem(name, settings);
    if (message) return { list: 'approvalCommands', index, message };
  }
  for (const [index, name] of settings.deniedCommands.entries()) {
    if (!COMMAND_NAME_PATTERN.test(name)) return { list: 'deniedCommands', index, message: invalidName(name) };
  }
  return null;
}

function readOnlyProblem(name: string, settings: PolicySettings): string | null {
  if (!COMMAND_NAME_PATTERN.test(name)) return invalidName(name);
  if (isOnHardFloor(name)) {
    return `${name} is on the hard floor (shells, interpreters, wrappers, privilege, network and system tools) and cannot be read-only`;
  }
  const lower = name.toLowerCase();
  const ownRule =
    WRITE_COMMANDS.has(lower) ||
    DEVELOPMENT_COMMANDS.has(lower) ||
    LONG_RUNNING_COMMANDS.has(lower) ||
    SHELL_KEYWORDS.has(lower);
  if (lower === 'git' || (!READ_ONLY_COMMANDS.has(name) && ownRule)) {
    return `${name} has its own built-in rule and cannot be made read-only`;
  }
  if (settings.deniedCommands.includes(name)) return `${name} cannot be both read-only and denied`;
  if (settings.approvalCommands.includes(name)) return `${name} cannot be both read-only and require approval`;
  return null;
}

function approvalProblem(name: string, settings: PolicySettings): string | null {
  if (!COMMAND_NAME_PATTERN.test(name)) return invalidName(name);
  if (isOnHardFloor(name)) {
    return `${name} is on the hard floor (shells, interpreters, wrappers, privilege, network and system tools) and cannot be approved`;
  }
  if (SHELL_KEYWORDS.has(name.toLowerCase())) return `${name} is a shell keyword, not a command`;
  if (settings.deniedCommands.includes(name)) return `${name} cannot be both denied and require approval`;
  return null;
}

function invalidName(name: string): string {
  return `${JSON.stringify(name)} is not a plain command name (letters, digits, '.', '_', '+', '-'; no paths)`;
}

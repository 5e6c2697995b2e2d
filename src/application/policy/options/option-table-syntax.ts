import type { OptionArgument } from './option-table.js';

export const NONE: OptionArgument = 'none';
export const REQUIRED: OptionArgument = 'required';
export const OPTIONAL: OptionArgument = 'optional';

/** `options(REQUIRED, 'output sort')`: a table's long options that share one argument kind, space-separated. */
export function options(argument: OptionArgument, names: string): Record<string, OptionArgument> {
  return Object.fromEntries(names.split(' ').map((name) => [name, argument]));
}

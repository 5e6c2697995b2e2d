import type { Word } from '../../shell/shell-ast.js';
import { hasOption, optionValues, splitArguments } from './arguments.js';
import { deny, type Judgement } from './judgement.js';

/** Seed SYMLINK_FOLLOW_FLAGS, plus tools that would otherwise read through symlinked directories. */
const SYMLINK_FOLLOWING: Readonly<Record<string, { short?: string; long?: readonly string[] }>> = {
  du: { short: 'L', long: ['--dereference'] },
  // ls -RL lists directories that symlinks point to.
  ls: { short: 'L', long: ['--dereference'] },
  grep: { short: 'R', long: ['--dereference-recursive'] },
  rg: { short: 'L', long: ['--follow'] },
  tree: { short: 'l' },
  cp: { short: 'LH', long: ['--dereference'] },
  // GNU diff -r reads through symlinks found inside the compared directories (unless --no-dereference).
  diff: { short: 'r', long: ['--recursive'] },
  file: { short: 'L', long: ['--dereference'] },
};
/** find takes single-dash long options, so its flags are matched whole. */
const FIND_SYMLINK_FLAGS = new Set(['-H', '-L', '-follow']);

export function judgeSymlinkFollowing(executable: string, args: readonly Word[]): Judgement | null {
  const values = args.map((word) => word.value);
  const spec = SYMLINK_FOLLOWING[executable];
  const options = splitArguments(args).options;
  const follows =
    executable === 'find'
      ? values.some((value) => FIND_SYMLINK_FLAGS.has(value))
      : spec !== undefined &&
        hasOption(options, spec) &&
        !(executable === 'diff' && hasOption(options, { long: ['--no-dereference'] }));
  return follows ? deny('symlink_follow', 'options that follow symlinks are blocked') : null;
}

const FIND_ACTIONS = new Set([
  '-delete',
  '-exec',
  '-execdir',
  '-fls',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-ok',
  '-okdir',
]);
const RIPGREP_PREPROCESSORS = new Set(['--pre', '--hostname-bin']);

/**
 * Options of otherwise read-only tools that run programs, change the system or read file lists the policy
 * cannot see. Returns the denial, or null.
 */
export function judgeReadOnlyOptions(executable: string, args: readonly Word[]): Judgement | null {
  const values = args.map((word) => word.value);
  const { options } = splitArguments(args);
  if (readsFileNameList(executable, values, options)) {
    return deny('unsafe_option', 'options that read file names from a list are blocked');
  }
  switch (executable) {
    case 'find':
      return values.some((value) => FIND_ACTIONS.has(value))
        ? deny('find_action', 'find actions that execute or modify files are blocked')
        : null;
    case 'rg':
      if (values.some((value) => RIPGREP_PREPROCESSORS.has(value.split('=', 1)[0] as string))) {
        return deny('ripgrep_preprocessor', 'ripgrep preprocessors are blocked');
      }
      return hasOption(options, { short: 'z', long: ['--search-zip'] })
        ? deny('unsafe_option', 'rg --search-zip runs decompression programs')
        : null;
    case 'diff':
      return hasOption(options, { short: 'l', long: ['--paginate'] })
        ? deny('unsafe_option', 'diff --paginate runs pr')
        : null;
    case 'sort':
      return hasOption(options, { long: ['--compress-program'] })
        ? deny('unsafe_option', 'sort --compress-program runs another program')
        : null;
    case 'date':
      return judgeDate(args);
    case 'md5sum':
    case 'sha256sum':
      return hasOption(options, { short: 'c', long: ['--check'] })
        ? deny('unsafe_option', 'checksum lists name files the policy cannot inspect')
        : null;
    case 'tree':
      if (hasOption(options, { long: ['--fromfile', '--fromtabfile'] })) {
        return deny('unsafe_option', 'tree --fromfile reads a listing the policy cannot inspect');
      }
      return hasOption(options, { short: 'R' }) ? deny('unsafe_option', 'tree -R writes listing files') : null;
    case 'file':
      if (hasOption(options, { short: 'zZ', long: ['--uncompress', '--uncompress-noreport'] })) {
        return deny('unsafe_option', 'file --uncompress runs decompression programs');
      }
      return hasOption(options, { short: 'C', long: ['--compile'] })
        ? deny('unsafe_option', 'file --compile writes a magic database')
        : null;
    default:
      return null;
  }
}

/** GNU date's options that take a value (`-d STRING`, `--date STRING`), so that value is not an operand. */
const DATE_SHORT_WITH_VALUE = 'dfrs';
const DATE_LONG_WITH_VALUE = new Set(['--date', '--file', '--reference', '--set', '--rfc-3339']);

/**
 * GNU date sets the clock with -s/--set and with any operand that is not a `+FORMAT`
 * (`date MMDDhhmm[[CC]YY][.ss]`), so only `+FORMAT` operands are allowed.
 */
function judgeDate(args: readonly Word[]): Judgement | null {
  let expectsValue = false;
  let endOfOptions = false;
  for (const { value } of args) {
    if (expectsValue) {
      expectsValue = false;
      continue;
    }
    if (!endOfOptions && value === '--') {
      endOfOptions = true;
    } else if (!endOfOptions && value.startsWith('--')) {
      const name = value.split('=', 1)[0] as string;
      if ('--set'.startsWith(name) && name.length > 2)
        return deny('unsafe_option', 'date --set changes the system clock');
      expectsValue = DATE_LONG_WITH_VALUE.has(name) && !value.includes('=');
    } else if (!endOfOptions && value.startsWith('-') && value !== '-') {
      const valueAt = [...value.slice(1)].findIndex((letter) => DATE_SHORT_WITH_VALUE.includes(letter));
      if (valueAt >= 0 && value[valueAt + 1] === 's')
        return deny('unsafe_option', 'date --set changes the system clock');
      expectsValue = valueAt >= 0 && valueAt + 2 === value.length;
    } else if (!value.startsWith('+')) {
      return deny('unsafe_option', 'a date operand other than +FORMAT sets the system clock');
    }
  }
  return null;
}

/**
 * `--files0-from` (du, wc, sort, find) and `file -f` take the names to read from a file or stdin, where the
 * policy cannot see them.
 */
function readsFileNameList(executable: string, values: readonly string[], options: readonly string[]): boolean {
  if (values.some((value) => value.startsWith('--files0-from') || value === '-files0-from')) return true;
  return executable === 'file' && hasOption(options, { short: 'f', long: ['--files-from'] });
}

/** Files a tool writes through its own options (`sort -o`, `tree -o`, `git diff --output`, uniq's second operand). */
export function optionOutputTargets(executable: string, args: readonly Word[]): string[] {
  switch (executable) {
    case 'git':
      return optionValues(args, ['--output']);
    case 'sort':
      return optionValues(args, ['-o', '--output']);
    case 'tree':
      return optionValues(args, ['-o']);
    case 'uniq': {
      const output = splitArguments(args).operands[1];
      return output ? [output.value] : [];
    }
    default:
      return [];
  }
}

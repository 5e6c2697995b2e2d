import type { PolicyMode } from '../../../domain/policy/policy-types.js';
import type { Word } from '../shell-ast.js';
import { optionValues } from './arguments.js';
import { allow, deny, judgeByMode, type Judgement } from './judgement.js';

const READ_ONLY_SUBCOMMANDS = new Set(['branch', 'diff', 'log', 'ls-files', 'rev-parse', 'show', 'status']);
const WRITE_SUBCOMMANDS = new Set(['add', 'commit', 'restore', 'switch']);

/** Global options (before the subcommand) that are safe; anything else there is refused. */
const GLOBAL_FLAGS = new Set([
  '--no-pager', '-P', '--no-optional-locks', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs',
  '--icase-pathspecs', '--no-replace-objects', '--bare', '--no-lazy-fetch', '--no-advice',
]);
/** Global options taking a value (a path: the path rule has already confined it). */
const GLOBAL_VALUE_OPTIONS = new Set(['-C', '--git-dir', '--work-tree', '--namespace']);
/** Options that set configuration, choose the programs git runs, or start a pager. */
const CODE_OPTIONS = new Set([
  '-c', '--config-env', '--exec-path', '-p', '--paginate', '--upload-pack', '--receive-pack', '--exec',
  '--super-prefix', '--open-files-in-pager', '-O',
]);

/** `git branch` options that only list; any other option or a branch name creates, renames or deletes. */
const BRANCH_LIST_FLAGS = new Set([
  '-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '--show-current', '--column', '--no-column',
  '--color', '--no-color', '-i', '--ignore-case', '--no-abbrev', '-q', '--quiet',
]);
const BRANCH_LIST_VALUE_OPTIONS = new Set(['--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--sort', '--format', '--abbrev']);

const CODE_OPTION_REASON = 'git options that run code or change configuration are blocked';

export function judgeGit(args: readonly Word[], mode: PolicyMode): Judgement {
  let index = 0;
  while (index < args.length) {
    const value = (args[index] as Word).value;
    if (!value.startsWith('-')) break;
    const name = value.split('=', 1)[0] as string;
    if (CODE_OPTIONS.has(name)) return deny('git_code_option', CODE_OPTION_REASON);
    if (GLOBAL_VALUE_OPTIONS.has(name)) index += value.includes('=') ? 1 : 2;
    else if (GLOBAL_FLAGS.has(value)) index += 1;
    else return deny('git_option', `git option is not allowlisted: ${value}`);
  }
  const subcommand = args[index]?.value ?? '';
  const rest = args.slice(index + 1);
  if (rest.some((word) => CODE_OPTIONS.has(word.value.split('=', 1)[0] as string) && word.value.startsWith('--'))) {
    return deny('git_code_option', CODE_OPTION_REASON);
  }
  if (READ_ONLY_SUBCOMMANDS.has(subcommand)) {
    const outputs = optionValues(rest, ['--output']);
    if (outputs.length > 0) return judgeGitWrite(mode, outputs);
    if (subcommand === 'branch' && branchModifies(rest)) return judgeGitWrite(mode, ['repository state']);
    return allow('low', 'read_only_git', 'read-only git command');
  }
  if (WRITE_SUBCOMMANDS.has(subcommand)) return judgeGitWrite(mode, ['repository state']);
  return deny('git_subcommand', 'git subcommand is not allowlisted');
}

function judgeGitWrite(mode: PolicyMode, filesTouched: readonly string[]): Judgement {
  return judgeByMode(
    mode,
    {
      risk: 'high',
      rule: 'git_write',
      reason: 'git command modifies repository state',
      inspectReason: 'git write commands are disabled in inspect mode',
    },
    { filesTouched },
  );
}

function branchModifies(args: readonly Word[]): boolean {
  const values = args.map((word) => word.value);
  if (values.includes('--list') || values.includes('-l')) return false;
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index] as string;
    const name = value.split('=', 1)[0] as string;
    if (BRANCH_LIST_FLAGS.has(value)) continue;
    if (BRANCH_LIST_VALUE_OPTIONS.has(name)) {
      if (!value.includes('=')) index += 1;
      continue;
    }
    return true;
  }
  return false;
}

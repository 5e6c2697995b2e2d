import type { PolicyMode } from '../../../domain/policy/policy-types.js';
import type { Word } from '../../shell/shell-ast.js';
import { optionValues } from './arguments.js';
import { allow, deny, judgeByMode, needsApproval, type Judgement } from './judgement.js';

const READ_ONLY_SUBCOMMANDS = new Set(['branch', 'diff', 'log', 'ls-files', 'rev-parse', 'show', 'status']);
const WRITE_SUBCOMMANDS = new Set(['add', 'commit', 'restore', 'switch']);
/** Subcommands that show diffs: the launch adds `--no-textconv --no-ext-diff` (drivers the attributes name). */
const DIFF_SUBCOMMANDS = new Set(['diff', 'log', 'show']);
/**
 * Worktree comparisons run the clean filter (`filter.<driver>.clean`/`.process`) that the repository's attributes
 * name for a changed file; git before 2.40 has no option to stop that, and `-c` cannot null a driver it does not
 * know the name of. `git diff --cached`/`--staged` compares the index with a commit and runs no filter.
 */
const WORKTREE_SUBCOMMANDS = new Set(['status', 'diff']);

/**
 * Settings placed before every git subcommand the policy launches. Command-line configuration beats every config
 * file, so the repository (its `.git/config`, or one it includes) cannot name a program through these keys:
 * the file-system monitor, hooks, pager, editor, signing programs, external diff, credential helpers. Implicit
 * bare repositories (a directory the model filled with `HEAD`, `config`, `hooks/`) are not used at all.
 * GIT_CONFIG_GLOBAL/GIT_CONFIG_NOSYSTEM in the child environment already keep out the other config files.
 */
export const GIT_LAUNCH_SETTINGS: readonly string[] = [
  '--no-pager',
  ...[
    'core.fsmonitor=false',
    'core.hooksPath=/dev/null',
    'core.pager=cat',
    'core.editor=false',
    'sequence.editor=false',
    'safe.bareRepository=explicit',
    'diff.external=',
    'credential.helper=',
    'core.sshCommand=false',
    'core.askPass=false',
    'gpg.program=false',
    'gpg.ssh.program=false',
    'gpg.x509.program=false',
    'commit.gpgSign=false',
    'tag.gpgSign=false',
    'log.showSignature=false',
    'core.alternateRefsCommand=false',
    'protocol.allow=never',
  ].flatMap((setting) => ['-c', setting]),
];
/** Options that turn the repository's diff drivers back on. */
const DRIVER_OPTIONS = new Set(['--textconv', '--ext-diff']);
/** Added right after a diff-showing subcommand. */
export const GIT_DIFF_LAUNCH_OPTIONS: readonly string[] = ['--no-textconv', '--no-ext-diff'];

/** Arguments to add to a git command's launch: after word `afterWord` (0 = the name `git` itself). */
export interface LaunchInsertion {
  readonly afterWord: number;
  readonly args: readonly string[];
}

/** Global options (before the subcommand) that are safe; anything else there is refused. */
const GLOBAL_FLAGS = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
  '--no-lazy-fetch',
  '--no-advice',
]);
/** Global options taking a value. */
const GLOBAL_VALUE_OPTIONS = new Set(['--namespace']);
/**
 * Options that point git at another repository or git directory: a directory the model wrote under any name,
 * with its own config and hooks. Git only uses the repository it finds from the working directory.
 */
const REPOSITORY_OPTIONS = new Set(['-C', '--git-dir', '--work-tree', '--bare']);
/** Options that set configuration, choose the programs git runs, or start a pager. */
const CODE_OPTIONS = new Set([
  '-c',
  '--config-env',
  '--exec-path',
  '-p',
  '--paginate',
  '--upload-pack',
  '--receive-pack',
  '--exec',
  '--super-prefix',
  '--open-files-in-pager',
  '-O',
]);

/** `git branch` options that only list; any other option or a branch name creates, renames or deletes. */
const BRANCH_LIST_FLAGS = new Set([
  '-a',
  '--all',
  '-r',
  '--remotes',
  '-v',
  '-vv',
  '--verbose',
  '--show-current',
  '--column',
  '--no-column',
  '--color',
  '--no-color',
  '-i',
  '--ignore-case',
  '--no-abbrev',
  '-q',
  '--quiet',
]);
const BRANCH_LIST_VALUE_OPTIONS = new Set([
  '--contains',
  '--no-contains',
  '--merged',
  '--no-merged',
  '--points-at',
  '--sort',
  '--format',
  '--abbrev',
]);

const CODE_OPTION_REASON = 'git options that run code or change configuration are blocked';

/** Index of the subcommand in `args` (the words after `git`), or a denial for a global option. */
function findSubcommand(args: readonly Word[]): number | Judgement {
  let index = 0;
  while (index < args.length) {
    const value = (args[index] as Word).value;
    if (!value.startsWith('-')) break;
    const name = value.split('=', 1)[0] as string;
    if (CODE_OPTIONS.has(name)) return deny('git_code_option', CODE_OPTION_REASON);
    if (REPOSITORY_OPTIONS.has(name)) {
      return deny(
        'git_repository_option',
        `git may only use the repository of the working directory; set cwd instead of ${name}`,
      );
    }
    if (GLOBAL_VALUE_OPTIONS.has(name)) index += value.includes('=') ? 1 : 2;
    else if (GLOBAL_FLAGS.has(value)) index += 1;
    else return deny('git_option', `git option is not allowlisted: ${value}`);
  }
  return index;
}

/** What the launch adds to an allowed git command (see GIT_LAUNCH_SETTINGS). */
export function gitLaunchInsertions(args: readonly Word[]): LaunchInsertion[] {
  const index = findSubcommand(args);
  const insertions: LaunchInsertion[] = [{ afterWord: 0, args: GIT_LAUNCH_SETTINGS }];
  if (typeof index === 'number' && DIFF_SUBCOMMANDS.has(args[index]?.value ?? '')) {
    insertions.push({ afterWord: index + 1, args: GIT_DIFF_LAUNCH_OPTIONS });
  }
  return insertions;
}

export function judgeGit(args: readonly Word[], mode: PolicyMode): Judgement {
  const index = findSubcommand(args);
  if (typeof index !== 'number') return index;
  const subcommand = args[index]?.value ?? '';
  const rest = args.slice(index + 1);
  if (rest.some((word) => CODE_OPTIONS.has(word.value.split('=', 1)[0] as string) && word.value.startsWith('--'))) {
    return deny('git_code_option', CODE_OPTION_REASON);
  }
  // The launch puts --no-textconv --no-ext-diff right after the subcommand; a later option would win over them.
  const driverOption = rest.find((word) => DRIVER_OPTIONS.has(word.value));
  if (driverOption)
    return deny('git_code_option', `${driverOption.value} runs a program the repository's attributes name`);
  if (READ_ONLY_SUBCOMMANDS.has(subcommand)) {
    const outputs = optionValues(rest, ['--output']);
    if (outputs.length > 0) return judgeGitWrite(mode, outputs);
    if (subcommand === 'branch' && branchModifies(rest)) return judgeGitWrite(mode, ['repository state']);
    if (
      WORKTREE_SUBCOMMANDS.has(subcommand) &&
      !rest.some((word) => word.value === '--cached' || word.value === '--staged')
    ) {
      return judgeWorktreeComparison(mode);
    }
    return allow('low', 'read_only_git', 'read-only git command');
  }
  if (WRITE_SUBCOMMANDS.has(subcommand)) return judgeGitWrite(mode, ['repository state']);
  return deny('git_subcommand', 'git subcommand is not allowlisted');
}

/**
 * `git status` and `git diff` against the worktree may run filter programs the repository names: they execute
 * project code, like a build tool. Reviewed unless trusted; in inspect mode too, rather than denied outright.
 */
function judgeWorktreeComparison(mode: PolicyMode): Judgement {
  const reason = "git status and git diff run the filter programs the repository's attributes and config name";
  const facts = { executesProjectCode: true };
  return mode === 'trusted'
    ? allow('medium', 'git_worktree_filters', reason, facts)
    : needsApproval('medium', 'git_worktree_filters', reason, facts);
}

function judgeGitWrite(mode: PolicyMode, filesTouched: readonly string[]): Judgement {
  // add, commit, restore and switch run the clean and smudge filters the repository names.
  return judgeByMode(
    mode,
    {
      risk: 'high',
      rule: 'git_write',
      reason: 'git command modifies repository state',
      inspectReason: 'git write commands are disabled in inspect mode',
    },
    { filesTouched, executesProjectCode: true },
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

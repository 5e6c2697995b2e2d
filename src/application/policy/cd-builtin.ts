import type { PathInspector } from '../../domain/policy/path-inspector.js';
import { allow, deny, type Judgement } from './rules/judgement.js';
import type { SimpleCommand } from '../shell/shell-ast.js';

/** A line may leave this many candidate working directories open (cd targets that may not exist yet). */
export const MAX_CANDIDATE_DIRECTORIES = 8;

export interface CdJudgement {
  readonly judgement: Judgement;
  /** The directories the rest of the list may run in (unchanged when cd is refused). */
  readonly cwds: readonly string[];
}

const NEXT_STEP = 'set the cwd argument to a directory inside the workspace instead of changing directory in the line';

/** True for a simple command the shell runs as its `cd` builtin (a literal `cd` name). */
export function isCdBuiltin(command: SimpleCommand): boolean {
  const name = command.words[0];
  return name !== undefined && name.value === 'cd' && name.expansions.length === 0;
}

/**
 * `cd DIR` is a shell builtin, not a program: /bin/sh (dash) changes its own directory and runs the rest of the list
 * there. A directory inside the workspace is allowed and the rest of the list is judged in it (where cd may fail,
 * the caller also judges it where it was: see LineWalker). A target reached
 * through a symbolic link is refused: dash then tracks a logical path, and a later `cd ..` would climb from the
 * link's name, not from the directory the policy resolved. Options (`-L`, `-P`), `cd` alone (HOME) and `cd -`
 * (OLDPWD) name directories the policy cannot see. The launched shell's environment holds neither CDPATH nor PWD
 * (adapters/process/scrubbed-environment.ts), so a relative target is taken from the physical working directory.
 */
export function judgeCd(command: SimpleCommand, cwds: readonly string[], inspector: PathInspector): CdJudgement {
  const refuse = (rule: string, reason: string): CdJudgement => ({
    judgement: deny(rule, `${reason}; ${NEXT_STEP}`),
    cwds,
  });
  if (command.assignments.length > 0 || command.redirections.length > 0) {
    return refuse('cd_form', 'cd takes one directory, without assignments or redirections');
  }
  const args = command.words.slice(1);
  const operands = args[0]?.value === '--' ? args.slice(1) : args;
  const target = operands[0];
  if (target === undefined || operands.length > 1) return refuse('cd_form', 'cd takes exactly one directory');
  if (target.expansions.length > 0)
    return refuse('cd_dynamic_target', `the cd directory must be written out: ${target.raw}`);
  if (operands === args && target.value.startsWith('-'))
    return refuse('cd_form', `cd ${target.value} names a directory the policy cannot see`);
  if (target.value === '') return refuse('cd_form', 'cd to an empty name');
  const next = new Set<string>();
  for (const cwd of cwds) {
    const facts = inspector.resolve(cwd, target.value);
    if (!facts.inside) return refuse('cd_outside_workspace', `cd ${target.value} leaves the workspace`);
    if (facts.viaSymlink) return refuse('cd_symlink', `cd ${target.value} goes through a symbolic link`);
    if (facts.exists && !facts.isDirectory) return refuse('cd_not_directory', `cd ${target.value}: not a directory`);
    next.add(facts.absolute);
  }
  if (next.size > MAX_CANDIDATE_DIRECTORIES) {
    return refuse('cd_too_many', `the line could run in more than ${MAX_CANDIDATE_DIRECTORIES} directories`);
  }
  return {
    judgement: allow('low', 'cd_builtin', `shell builtin cd: the rest of the list runs in ${target.value}`),
    cwds: [...next],
  };
}

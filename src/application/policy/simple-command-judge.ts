import {
  DEVELOPMENT_COMMANDS,
  LONG_RUNNING_COMMANDS,
  NETWORK_TOOLS,
  READ_ONLY_COMMANDS,
  SHELL_KEYWORDS,
  WRITE_COMMANDS,
  isOnHardFloor,
} from './command-catalog.js';
import { readOptions } from './options/option-reader.js';
import { optionTableFor } from './options/program-options.js';
import { judgeDevelopment } from './rules/development-rule.js';
import { gitLaunchInsertions, judgeGit, type LaunchInsertion } from './rules/git-rule.js';
import {
  allow,
  deny,
  higherRisk,
  needsApproval,
  requireApproval,
  type JudgeContext,
  type Judgement,
} from './rules/judgement.js';
import { findOverlongWord, findPathEscape, findProtectedTarget, outputTargets } from './rules/path-rule.js';
import { judgeReadOnlyOptions, judgeSymlinkFollowing, optionOutputTargets } from './rules/read-only-rules.js';
import { applyShellModifiers, judgeShellFeatures, type CommandShape } from './rules/shell-feature-rule.js';
import { denyProtectedWrite, judgeBroadDeletion, judgeFileWrite, judgeWrite } from './rules/write-rule.js';
import { unwrapCommand, type InnerCommand } from './rules/wrapper-unwrap.js';

export interface SimpleCommandJudgement {
  readonly judgement: Judgement;
  /** Absolute path of the executable on the trusted PATH, when the command is not denied. */
  readonly executablePath: string | null;
  /** What a wrapper, shell or interpreter would run; judged separately by the caller. */
  readonly inner: InnerCommand | null;
  /** Arguments the launch adds so the command runs as judged (git: settings the repository cannot override). */
  readonly insertions: readonly LaunchInsertion[];
}

/**
 * Judges one simple command, seed rule order first hit wins: shell features, executable name, hard floor,
 * policy-file denials, working directory, broad deletion, path confinement, symlink options, trusted PATH,
 * then the per-command rules; approval modifiers (substitution, glob, here-document, policy file) come last.
 */
export function judgeSimpleCommand(command: CommandShape, context: JudgeContext): SimpleCommandJudgement {
  const nameWord = command.words[0];
  const executable = nameWord && nameWord.expansions.length === 0 ? nameWord.value : null;
  const inner =
    executable !== null && isOnHardFloor(executable)
      ? unwrapCommand(executable.toLowerCase(), command.words.slice(1))
      : null;
  const judged = judgeOwnRules(command, executable, context);
  if (judged.verdict === 'deny' || executable === null)
    return { judgement: judged, executablePath: null, inner, insertions: [] };
  const insertions = executable === 'git' ? gitLaunchInsertions(command.words.slice(1)) : [];
  return { judgement: judged, executablePath: trustedExecutable(executable, context), inner, insertions };
}

/** The executable's trusted path, if it is one the launch form can quote verbatim. */
function trustedExecutable(executable: string, context: JudgeContext): string | null {
  const found = context.inspector.findExecutable(executable);
  return found !== null && /^\/[A-Za-z0-9._+/[-]+$/.test(found) ? found : null;
}

function judgeOwnRules(command: CommandShape, executable: string | null, context: JudgeContext): Judgement {
  const featureProblem = judgeShellFeatures(command);
  if (featureProblem) return featureProblem;
  const nameWord = command.words[0];
  if (!nameWord || (nameWord.value === '' && nameWord.expansions.length === 0)) {
    return deny('missing_executable', 'command must contain an executable');
  }
  if (executable === null) return deny('dynamic_executable', 'the executable must be a literal name, not an expansion');
  if (SHELL_KEYWORDS.has(executable))
    return deny('shell_keyword', `shell control structures are not supported: ${executable}`);
  if (executable.includes('/'))
    return deny('executable_path', 'executable paths are not accepted; use an allowlisted name');
  if (isOnHardFloor(executable)) {
    return deny('always_blocked', `${executable} is outside the safe command surface`, {
      networkRequested: NETWORK_TOOLS.has(executable.toLowerCase()),
    });
  }
  if (context.settings.deniedCommands.includes(executable)) {
    return deny('policy_denied_command', `${executable} is denied by the policy file`);
  }
  const table = optionTableFor(executable);
  let read = command;
  if (table !== undefined) {
    // Bounded before reading: the reader splits a cluster into a word per letter.
    const overlong = findOverlongWord(command.words.slice(1), command.redirections);
    if (overlong !== null) return deny('word_too_long', overlong);
    // Every later rule sees the options as the program reads them: abbreviations written out, clusters split.
    const reading = readOptions(table, command.words.slice(1));
    if (reading.kind === 'refused') return deny(reading.rule, reading.reason);
    read = { ...command, words: [nameWord, ...reading.words] };
  }
  const judged = judgeConfinedCommand(read, executable, context);
  return judged.verdict === 'deny' ? judged : applyApprovalModifiers(judged, command, executable, context);
}

function judgeConfinedCommand(command: CommandShape, executable: string, context: JudgeContext): Judgement {
  const args = command.words.slice(1);
  const cwd = context.cwd.startsWith('/') ? context.inspector.resolve(context.cwd, '') : null;
  const missingAfterCd = context.cwdFromCd === true && cwd !== null && !cwd.exists;
  if (!cwd || !cwd.inside || (!cwd.isDirectory && !missingAfterCd)) {
    return deny('cwd_outside_workspace', 'working directory is outside the configured workspace');
  }
  const overlong = findOverlongWord(args, command.redirections);
  if (overlong !== null) return deny('word_too_long', overlong);
  const broadDeletion = judgeBroadDeletion(executable, args, context);
  if (broadDeletion) return broadDeletion;
  const escape = findPathEscape(args, command.redirections, context);
  if (escape !== null) return deny('path_escape', `path escapes the workspace: ${escape}`);
  const symlinks = judgeSymlinkFollowing(executable, args);
  if (symlinks) return symlinks;
  if (trustedExecutable(executable, context) === null) {
    return deny('untrusted_executable', `${executable} is not installed in a trusted location`);
  }
  return judgeByCategory(command, executable, context);
}

function judgeByCategory(command: CommandShape, executable: string, context: JudgeContext): Judgement {
  const args = command.words.slice(1);
  const redirected = outputTargets(command.redirections);
  const protectedTarget = findProtectedTarget([...redirected, ...optionOutputTargets(executable, args)], context);
  if (protectedTarget !== null) return denyProtectedWrite(protectedTarget);
  const readOnly = READ_ONLY_COMMANDS.has(executable) || context.settings.extraReadOnlyCommands.includes(executable);
  if (readOnly && executable !== 'git') {
    const optionProblem = judgeReadOnlyOptions(executable, args);
    if (optionProblem) return optionProblem;
    const written = [...optionOutputTargets(executable, args), ...redirected];
    return written.length === 0
      ? allow('low', 'read_only_command', 'read-only command')
      : judgeFileWrite(written, context);
  }
  if (WRITE_COMMANDS.has(executable)) return judgeWrite(executable, args, redirected, context);
  return withRedirectedWrites(judgeOtherCommand(executable, args, context), redirected, context);
}

/** git, sleep, development and policy-listed commands: their own verdict, before any redirection is added. */
function judgeOtherCommand(executable: string, args: CommandShape['words'], context: JudgeContext): Judgement {
  const { mode } = context.settings;
  if (executable === 'git') return judgeGit(args, mode);
  if (LONG_RUNNING_COMMANDS.has(executable)) {
    const reason = 'long-running process requires an explicit approval';
    return mode === 'trusted'
      ? allow('medium', 'long_running_process', reason)
      : needsApproval('medium', 'long_running_process', reason);
  }
  if (DEVELOPMENT_COMMANDS.has(executable)) return judgeDevelopment(executable, args, context);
  if (context.settings.approvalCommands.includes(executable)) {
    return needsApproval('medium', 'policy_requires_approval', `the policy file requires approval for ${executable}`);
  }
  return deny('not_allowlisted', `${executable} is not in the configured command allowlist`);
}

/** A command that also writes through redirections: the write's verdict applies on top of its own. */
function withRedirectedWrites(own: Judgement, redirected: readonly string[], context: JudgeContext): Judgement {
  if (own.verdict === 'deny' || redirected.length === 0) return own;
  const write = judgeFileWrite(redirected, context);
  if (write.verdict === 'deny')
    return { ...write, networkRequested: own.networkRequested, executesProjectCode: own.executesProjectCode };
  const merged =
    write.verdict === 'approval_required'
      ? requireApproval(own, write.risk, write.rule, write.reasons[0] as string)
      : own;
  return {
    ...merged,
    risk: higherRisk(merged.risk, write.risk),
    filesTouched: [...own.filesTouched, ...write.filesTouched],
  };
}

function applyApprovalModifiers(
  judged: Judgement,
  command: CommandShape,
  executable: string,
  context: JudgeContext,
): Judgement {
  const approvalListed =
    context.settings.approvalCommands.includes(executable) && judged.rule !== 'policy_requires_approval';
  const listed = approvalListed
    ? requireApproval(
        judged,
        'medium',
        'policy_requires_approval',
        `the policy file requires approval for ${executable}`,
      )
    : judged;
  return applyShellModifiers(listed, command, context.settings.mode);
}

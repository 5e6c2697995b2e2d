import type { PolicyMode } from '../../../domain/policy/policy-types.js';
import type { Redirection, Word, WordFeature } from '../../shell/shell-ast.js';
import { deny, requireApproval, withRisk, type Judgement } from './judgement.js';

/** The parts of a simple command the shell-feature rules look at. */
export interface CommandShape {
  readonly assignments: readonly Word[];
  readonly words: readonly Word[];
  readonly redirections: readonly Redirection[];
}

/** Constructs whose value is unknowable, or which /bin/sh (dash) would read differently from bash: denied. */
const DENIED_FEATURES: Readonly<Partial<Record<WordFeature, { rule: string; reason: (text: string) => string }>>> = {
  parameter_expansion: { rule: 'parameter_expansion', reason: (text) => `variable expansion is not allowed: ${text}` },
  arithmetic_expansion: { rule: 'arithmetic_expansion', reason: () => 'arithmetic expansion is not allowed' },
  backtick_substitution: {
    rule: 'backtick_substitution',
    reason: () => 'backtick substitution is not allowed; use $(...)',
  },
  process_substitution: {
    rule: 'process_substitution',
    reason: () => 'process substitution is not supported by /bin/sh',
  },
  dollar_quote: { rule: 'dollar_quote', reason: () => '$\'...\' and $"..." quoting are not supported by /bin/sh' },
  tilde: {
    rule: 'tilde_expansion',
    reason: () => 'tilde expansion is not allowed; write the path inside the workspace',
  },
  brace: { rule: 'brace_expansion', reason: () => 'brace expansion is not supported by /bin/sh' },
};

/** `&>`, `|&`-style and `<<<` are bash-only: dash would parse `ls &> f` as `ls &` then `> f`. */
const BASH_ONLY_OPERATORS = new Set(['&>', '&>>', '<<<']);

export function judgeShellFeatures(command: CommandShape): Judgement | null {
  const firstAssignment = command.assignments[0];
  if (firstAssignment) {
    const name = firstAssignment.raw.slice(0, firstAssignment.raw.indexOf('='));
    return deny('environment_assignment', `environment assignments are not allowed: ${name}`);
  }
  const words = [...command.words, ...command.redirections.filter((r) => !isHereDocument(r)).map((r) => r.target)];
  for (const word of words) {
    for (const expansion of word.expansions) {
      const denied = DENIED_FEATURES[expansion.feature];
      if (denied) return deny(denied.rule, denied.reason(expansion.text));
    }
    if (globMatchesHiddenEntries(word)) {
      return deny(
        'glob_expansion',
        `glob patterns that can match hidden or parent entries are not allowed: ${word.raw}`,
      );
    }
  }
  for (const redirection of command.redirections) {
    const problem = redirectionProblem(redirection);
    if (problem) return problem;
  }
  return null;
}

/** A redirection target must be a literal path: a substituted or globbed one could be any file. */
function dynamicTarget(redirection: Redirection): boolean {
  return !isHereDocument(redirection) && redirection.target.expansions.length > 0;
}

function redirectionProblem(redirection: Redirection): Judgement | null {
  const { operator, target } = redirection;
  if (dynamicTarget(redirection)) {
    return deny('dynamic_redirection_target', `redirection targets must be literal paths: ${target.raw}`);
  }
  if (BASH_ONLY_OPERATORS.has(operator)) {
    return deny('unsupported_redirection', `redirection ${operator} is not supported by /bin/sh`);
  }
  if ((operator === '>&' || operator === '<&') && !/^([0-9]+|-)$/.test(target.value)) {
    return deny('unsupported_redirection', `redirection ${operator} only duplicates file descriptors`);
  }
  const hereDocument = redirection.hereDocument;
  if (hereDocument?.expands && /[$`\\]/.test(hereDocument.body)) {
    return deny('here_document_expansion', 'here-documents with expansions are not allowed; quote the delimiter');
  }
  return null;
}

/** In dash `.*` matches `.` and `..`, and a bracket may match a leading dot: such patterns can leave the tree. */
function globMatchesHiddenEntries(word: Word): boolean {
  if (!word.expansions.some((e) => e.feature === 'glob')) return false;
  return word.value
    .split('/')
    .some((component) => /[*?[]/.test(component) && (component.startsWith('.') || component.startsWith('[')));
}

function isHereDocument(redirection: Redirection): boolean {
  return redirection.operator === '<<' || redirection.operator === '<<-';
}

/**
 * Constructs the policy can read but whose result only the running shell knows. A substitution's output or a
 * glob's matches may name any file (a symlink out of the workspace, a computed `/etc/...`), so path confinement
 * cannot be verified: they need an approval in every mode, trusted included. A here-document is fully visible
 * text fed to stdin: it needs an approval unless trusted.
 */
export function applyShellModifiers(current: Judgement, command: CommandShape, mode: PolicyMode): Judgement {
  // Most commands have neither expansions nor redirections: nothing to modify, nothing to build.
  if (command.redirections.length === 0 && command.words.every((word) => word.expansions.length === 0)) return current;
  const features = new Set(
    [...command.words, ...command.redirections.map((r) => r.target)].flatMap((word) =>
      word.expansions.map((e) => e.feature),
    ),
  );
  const modifiers: { present: boolean; evenTrusted: boolean; risk: 'medium' | 'high'; rule: string; reason: string }[] =
    [
      {
        present: features.has('command_substitution'),
        evenTrusted: true,
        risk: 'high',
        rule: 'command_substitution',
        reason: 'command substitution output becomes part of the command',
      },
      {
        present: features.has('glob'),
        evenTrusted: true,
        risk: 'medium',
        rule: 'glob_expansion',
        reason: 'glob patterns expand to files the policy cannot inspect',
      },
      {
        present: command.redirections.some(isHereDocument),
        evenTrusted: false,
        risk: 'medium',
        rule: 'here_document',
        reason: 'here-document content is passed to the command',
      },
    ];
  let judged = current;
  for (const modifier of modifiers.filter((m) => m.present)) {
    judged =
      mode === 'trusted' && !modifier.evenTrusted
        ? withRisk(judged, modifier.risk, modifier.reason)
        : requireApproval(judged, modifier.risk, modifier.rule, modifier.reason);
  }
  return judged;
}

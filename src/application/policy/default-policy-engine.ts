import { ConfigurationError } from '../../domain/errors.js';
import type { PathInspector } from '../../domain/policy/path-inspector.js';
import { ShellSyntaxError } from '../../domain/policy/policy-errors.js';
import type { PolicyEngine } from '../../domain/policy/policy-engine.js';
import type { LaunchForm, PolicyDecision, PolicyRequest } from '../../domain/policy/policy-types.js';
import { CATALOGUE_JUDGING } from './catalogue-judging.js';
import { launchFor } from './launch-form.js';
import { LineDecision, type JudgedPart, type LineOutcome } from './line-decision.js';
import { LineWalker } from './line-walker.js';
import { MemoizedPathInspector } from './memoized-path-inspector.js';
import { findFloorViolation } from './policy-floor.js';
import { DEFAULT_POLICY_SETTINGS, type PolicyExamples, type PolicySettings } from './policy-settings.js';
import { deny, type Judgement } from './rules/judgement.js';
import { SANDBOXED_JUDGING } from './sandboxed-judging.js';
import { SimpleCommandMemo } from './simple-command-memo.js';
import { syntaxDenial } from './syntax-denial.js';
import type { ParsedCommandLine } from '../shell/shell-ast.js';
import { parseShellCommand } from '../shell/shell-parser.js';

/** Seed limit (policy.py hard-codes 1000; MAX_COMMAND_LENGTH documents it), counted in characters. */
export const DEFAULT_MAX_COMMAND_CHARACTERS = 1000;
/**
 * Control, format (zero-width, bidi overrides), surrogate, private-use and separator characters, and every space
 * but U+0020: they hide or disguise text from the person approving it, or change how the shell splits it.
 */
const HIDDEN_CHARACTERS = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}\p{Zs}]/u;

/**
 * The default policy (seed `CommandPolicy`, re-implemented): the line is parsed as shell, every simple command
 * in it (and in its substitutions, and inside wrappers) is judged, and the strictest verdict wins.
 * deny > approval_required > allow. Anything not understood is denied.
 */
export class DefaultPolicyEngine implements PolicyEngine {
  private readonly settings: PolicySettings;

  constructor(
    private readonly inspector: PathInspector,
    settings: PolicySettings = DEFAULT_POLICY_SETTINGS,
    private readonly maxCommandCharacters: number = DEFAULT_MAX_COMMAND_CHARACTERS,
  ) {
    const violation = findFloorViolation(settings);
    if (violation)
      throw new ConfigurationError(`policy settings ${violation.list}[${violation.index}]: ${violation.message}`);
    this.settings = settings;
    const mismatch = settings.examples === undefined ? null : this.findExampleMismatch(settings.examples);
    if (mismatch) throw new ConfigurationError(mismatch, { setting: 'TERM_MCP_POLICY' });
  }

  /** The first policy-file example whose verdict differs, judged from the workspace root; null when all hold. */
  private findExampleMismatch(examples: PolicyExamples): string | null {
    const expectations = [
      ['allow', 'allow', examples.allow],
      ['require_approval', 'approval_required', examples.require_approval],
      ['deny', 'deny', examples.deny],
    ] as const;
    for (const [key, verdict, lines] of expectations) {
      for (const [index, command] of lines.entries()) {
        const decision = this.evaluate({ command, cwd: this.inspector.root });
        if (decision.verdict !== verdict) {
          return `policy file example examples.${key}[${index}] ${JSON.stringify(command)} should be ${verdict} in ${this.settings.mode} mode but is ${decision.verdict} (rule ${decision.matchedRule}: ${decision.reasons[0] ?? ''})`;
        }
      }
    }
    return null;
  }

  /**
   * One pass: the text checks, the parse, one walk of the tree that judges every simple command and folds it into
   * the line's decision while noting each command name for the launch, then the launch script in one sweep.
   */
  evaluate(request: PolicyRequest): PolicyDecision {
    const command = request.command;
    const early = checkCommandText(command, this.maxCommandCharacters);
    if (early) return decisionOf(single({ text: typeof command === 'string' ? command : '', ...early }), null, null);
    // The mode decides how each node of the line is judged; the walk is the same. Sandboxed mode names no executable,
    // so its line is launched as written through /bin/sh: the sandbox, not name resolution, bounds what it runs.
    const mode = this.settings.mode === 'sandboxed' ? SANDBOXED_JUDGING : CATALOGUE_JUDGING;
    let parsed: ParsedCommandLine;
    try {
      parsed = parseShellCommand(command, mode.parseOptions);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      return decisionOf(single({ text: command, ...syntaxDenial(error) }), null, null);
    }
    const inspector = new MemoizedPathInspector(this.inspector.snapshot?.() ?? this.inspector);
    const context = { settings: this.settings, inspector, cwd: request.cwd };
    const line = new LineWalker(mode, context, new SimpleCommandMemo(inspector)).judgeLine(parsed);
    const launch = line.outcome.verdict === 'deny' ? null : launchFor(parsed, command, line.executableSpans);
    return decisionOf(line.outcome, parsed, launch);
  }
}

/** Characters as the user counts them (a surrogate pair is one), without building an array of them. */
function codePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0xdc00 || unit > 0xdfff || index === 0 || !isHighSurrogate(text.charCodeAt(index - 1))) count += 1;
  }
  return count;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function checkCommandText(command: unknown, maxCharacters: number): Judgement | null {
  if (typeof command !== 'string' || command.length === 0)
    return deny('empty_command', 'command must be a non-empty string');
  if (command.length > maxCharacters && codePoints(command) > maxCharacters) {
    return deny('command_too_long', `command exceeds the ${maxCharacters} character limit`);
  }
  if (HIDDEN_CHARACTERS.test(command.replace(/[ \t\n]/g, ''))) {
    return deny('control_characters', 'command contains control or invisible characters');
  }
  if (command.trim() === '') return deny('missing_executable', 'command must contain an executable');
  return null;
}

function single(part: JudgedPart): LineOutcome {
  const decision = new LineDecision();
  decision.add(part);
  return decision.outcome();
}

function decisionOf(outcome: LineOutcome, parsed: ParsedCommandLine | null, launch: LaunchForm | null): PolicyDecision {
  const decision: PolicyDecision = {
    verdict: outcome.verdict,
    risk: outcome.risk,
    reasons: outcome.reasons,
    matchedRule: outcome.matchedRule,
    parts: outcome.parts,
    preview: {
      executable: previewExecutable(parsed),
      filesPotentiallyTouched: outcome.filesPotentiallyTouched,
      networkRequested: outcome.networkRequested,
      executesProjectCode: outcome.executesProjectCode,
    },
  };
  return launch ? { ...decision, launch } : decision;
}

/** Seed preview: the basename of the first command's executable. */
function previewExecutable(parsed: ParsedCommandLine | null): string | null {
  const command = parsed?.list.items[0]?.pipeline.commands[0];
  const name = command?.type === 'simple' ? command.words[0]?.value : undefined;
  if (!name) return null;
  return name.slice(name.lastIndexOf('/') + 1) || null;
}

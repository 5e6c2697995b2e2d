import { ConfigurationError } from '../../domain/errors.js';
import type { PathInspector } from '../../domain/policy/path-inspector.js';
import { ShellSyntaxError } from '../../domain/policy/policy-errors.js';
import type { PolicyEngine } from '../../domain/policy/policy-engine.js';
import type { LaunchForm, PolicyDecision, PolicyRequest, RiskLevel } from '../../domain/policy/policy-types.js';
import { CommandLineJudge, syntaxDenial, type ExecutableSpan, type JudgedPart } from './command-line-judge.js';
import { MemoizedPathInspector } from './memoized-path-inspector.js';
import { findFloorViolation } from './policy-floor.js';
import { DEFAULT_POLICY_SETTINGS, type PolicyExamples, type PolicySettings } from './policy-settings.js';
import { deny, higherRisk, riskSeverity, verdictSeverity, type Judgement } from './rules/judgement.js';
import type { ParsedCommandLine } from './shell-ast.js';
import { SANDBOXED_PARSE, SandboxedLineJudge } from './sandboxed-line-judge.js';
import { parseShellCommand } from './shell-parser.js';

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
    if (violation) throw new ConfigurationError(`policy settings ${violation.list}[${violation.index}]: ${violation.message}`);
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

  evaluate(request: PolicyRequest): PolicyDecision {
    const command = request.command;
    const early = checkCommandText(command, this.maxCommandCharacters);
    if (early) return decide([{ text: typeof command === 'string' ? command : '', ...early }], null, command, []);
    const sandboxed = this.settings.mode === 'sandboxed';
    let parsed: ParsedCommandLine;
    try {
      parsed = parseShellCommand(command, sandboxed ? SANDBOXED_PARSE : {});
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      return decide([{ text: command, ...syntaxDenial(error) }], null, command, []);
    }
    const context = { settings: this.settings, inspector: new MemoizedPathInspector(this.inspector), cwd: request.cwd };
    // Sandboxed mode launches the line as written through /bin/sh (no spans to rewrite): the sandbox, not name
    // resolution, bounds what it runs, and PATH is the fixed trusted one.
    if (sandboxed) return decide(new SandboxedLineJudge(context).judgeLine(parsed), parsed, command, []);
    const line = new CommandLineJudge(context).judgeLine(parsed);
    return decide(line.parts, parsed, command, line.executableSpans);
  }
}

function checkCommandText(command: unknown, maxCharacters: number): Judgement | null {
  if (typeof command !== 'string' || command.length === 0) return deny('empty_command', 'command must be a non-empty string');
  if ([...command].length > maxCharacters) {
    return deny('command_too_long', `command exceeds the ${maxCharacters} character limit`);
  }
  if (HIDDEN_CHARACTERS.test(command.replace(/[ \t\n]/g, ''))) {
    return deny('control_characters', 'command contains control or invisible characters');
  }
  if (command.trim() === '') return deny('missing_executable', 'command must contain an executable');
  return null;
}

function decide(parts: readonly JudgedPart[], parsed: ParsedCommandLine | null, command: string, spans: readonly ExecutableSpan[]): PolicyDecision {
  // Strictest verdict first, then highest risk; the sort is stable, so line order breaks ties.
  const ranked = [...parts].sort(
    (a, b) => verdictSeverity(b.verdict) - verdictSeverity(a.verdict) || riskSeverity(b.risk) - riskSeverity(a.risk),
  );
  const decisive = ranked[0] as JudgedPart;
  const verdict = decisive.verdict;
  // A denial or an approval is explained by the parts that caused it; an allowed line by all of its parts.
  const reasonSources = ranked.filter((part) => part.verdict === verdict);
  const risk: RiskLevel = verdict === 'deny' ? 'blocked' : parts.reduce<RiskLevel>((highest, part) => higherRisk(highest, part.risk), 'low');
  const launch = verdict === 'deny' || parsed === null ? undefined : launchFor(parsed, command, spans);
  const decision: PolicyDecision = {
    verdict,
    risk,
    reasons: unique(reasonSources.flatMap((part) => part.reasons)),
    matchedRule: decisive.rule,
    parts: parts.map((part) => ({ text: part.text, verdict: part.verdict, rule: part.rule, reason: part.reasons[0] ?? '' })),
    preview: {
      executable: previewExecutable(parsed),
      filesPotentiallyTouched: unique(parts.flatMap((part) => part.filesTouched)),
      networkRequested: parts.some((part) => part.networkRequested),
      executesProjectCode: parts.some((part) => part.executesProjectCode),
    },
  };
  return launch ? { ...decision, launch } : decision;
}

/**
 * A lone simple command without shell features runs as an argv (no shell at all). Anything else runs through
 * the fixed `/bin/sh -c`, with every command name replaced by its quoted trusted path so neither PATH lookup,
 * aliases nor functions can change what runs.
 */
function launchFor(parsed: ParsedCommandLine, command: string, spans: readonly ExecutableSpan[]): LaunchForm {
  const single = singlePlainCommand(parsed);
  const span = spans[0];
  if (single && span && spans.length === 1) {
    const argv = [span.absolute, ...single.slice(1)];
    for (const { afterWord, args } of [...span.insertions].sort((a, b) => b.afterWord - a.afterWord)) argv.splice(afterWord + 1, 0, ...args);
    return { kind: 'argv', argv };
  }
  // One pass from the start of the line: each edit replaces [start, end) (an insertion has start === end), so the
  // script is built in time linear in the line, however many commands it holds.
  const edits = spans.flatMap(({ start, end, absolute, insertions }) => [
    { start, end, text: `'${absolute}'` },
    ...insertions.map(({ offset, args }) => ({ start: offset, end: offset, text: ` ${args.map(quoteForShell).join(' ')}` })),
  ]);
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  const pieces: string[] = [];
  let cursor = 0;
  for (const edit of edits) {
    pieces.push(command.slice(cursor, edit.start), edit.text);
    cursor = Math.max(cursor, edit.end);
  }
  pieces.push(command.slice(cursor));
  const script = pieces.join('');
  return { kind: 'shell', script };
}

/** Single-quotes a fixed argument (the policy's own constants; none contains a single quote). */
function quoteForShell(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}

/** The words of the line when it is exactly one simple command with literal words and nothing else. */
function singlePlainCommand(parsed: ParsedCommandLine): string[] | null {
  const [item, ...others] = parsed.list.items;
  if (!item || others.length > 0 || item.separator === '&' || item.separator === '&&' || item.separator === '||') return null;
  const [command, ...piped] = item.pipeline.commands;
  if (!command || piped.length > 0 || item.pipeline.negated || parsed.hasComment || command.type !== 'simple') return null;
  if (command.assignments.length > 0 || command.redirections.length > 0) return null;
  if (command.words.some((word) => word.expansions.length > 0)) return null;
  return command.words.map((word) => word.value);
}

/** Seed preview: the basename of the first command's executable. */
function previewExecutable(parsed: ParsedCommandLine | null): string | null {
  const command = parsed?.list.items[0]?.pipeline.commands[0];
  const name = command?.type === 'simple' ? command.words[0]?.value : undefined;
  if (!name) return null;
  return name.slice(name.lastIndexOf('/') + 1) || null;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

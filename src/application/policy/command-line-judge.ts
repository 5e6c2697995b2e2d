import { CommandTooComplex, ShellSyntaxError } from '../../domain/policy/policy-errors.js';
import { deny, type JudgeContext, type Judgement } from './rules/judgement.js';
import type { InnerCommand } from './rules/wrapper-unwrap.js';
import { LineDecision, type LineOutcome } from './line-decision.js';
import type { Command, CommandList, ParsedCommandLine, SimpleCommand } from '../shell/shell-ast.js';
import { parseShellCommand } from '../shell/shell-parser.js';
import { judgeSimpleCommand } from './simple-command-judge.js';
import { isCdBuiltin, judgeCd, MAX_CANDIDATE_DIRECTORIES } from './cd-builtin.js';

export type { JudgedPart } from './line-decision.js';

/** Where a command name sits in the line, and the trusted executable it resolves to. */
export interface ExecutableSpan {
  readonly start: number;
  readonly end: number;
  readonly absolute: string;
  /** Arguments the launch adds: after word `afterWord` of the command, which ends at `offset` in the line. */
  readonly insertions: readonly { readonly afterWord: number; readonly offset: number; readonly args: readonly string[] }[];
}

export interface LineJudgement {
  /**
   * The line's verdict, folded from every simple command (and structure) judged, in line order, inner commands
   * after their wrapper.
   */
  readonly outcome: LineOutcome;
  /** Command names of the line itself that would run, in the order met, for the launch form. */
  readonly executableSpans: readonly ExecutableSpan[];
}

/** Where the walk puts what it finds: each judged part into the decision, each command name into the spans. */
interface WalkSink {
  readonly decision: LineDecision;
  /** Null inside what a wrapper would run: those names never reach the launch form (the wrapper is denied). */
  readonly spans: ExecutableSpan[] | null;
}

/** Wrappers inside wrappers (`sudo env sh -c "timeout 1 ..."`) are unwrapped this deep, then refused. */
const MAX_UNWRAP_DEPTH = 8;

/**
 * Walks the parsed line once and judges every part: pipelines, lists, substitutions and what wrappers would run.
 * Each judged part is folded into the line's decision and each command name recorded for the launch as it is met,
 * so the engine needs no further pass over the parts or the tree.
 */
export class CommandLineJudge {
  constructor(private readonly context: JudgeContext) {}

  judgeLine(parsed: ParsedCommandLine): LineJudgement {
    const sink: WalkSink = { decision: new LineDecision(), spans: [] };
    if (parsed.hasComment) sink.decision.add({ text: '#', ...deny('shell_comment', 'comments are not accepted in commands') });
    this.judgeList(parsed.list, 0, sink, [this.context.cwd]);
    return { outcome: sink.decision.outcome(), executableSpans: sink.spans ?? [] };
  }

  /**
   * Judges a list in every directory it may run in: `cwds` starts as the request's cwd (or where the enclosing list
   * was) and changes with each `cd` builtin. A cd may fail (a missing or unreadable directory): its `&&` chain is then
   * skipped, but what follows a `;` or `||` runs where the line was, so from there on both directories count.
   */
  private judgeList(list: CommandList, depth: number, sink: WalkSink, startCwds: readonly string[]): void {
    let cwds = startCwds;
    let ifCdFailed: readonly string[] = [];
    for (const item of list.items) {
      const { pipeline } = item;
      const lone = pipeline.commands.length === 1 ? pipeline.commands[0] : undefined;
      if (lone !== undefined && lone.type === 'simple' && isCdBuiltin(lone) && item.separator !== '&' && !pipeline.negated) {
        const judged = judgeCd(lone, cwds, this.context.inspector);
        sink.decision.add({ text: lone.text, ...judged.judgement });
        ifCdFailed = [...new Set([...ifCdFailed, ...cwds])];
        cwds = judged.cwds;
      } else {
        this.judgePipeline(item, depth, sink, cwds);
      }
      if (item.separator !== '&&' && ifCdFailed.length > 0) {
        cwds = [...new Set([...cwds, ...ifCdFailed])];
        ifCdFailed = [];
        if (cwds.length > MAX_CANDIDATE_DIRECTORIES) {
          sink.decision.add({ text: 'cd', ...deny('cd_too_many', `the line could run in more than ${MAX_CANDIDATE_DIRECTORIES} directories`) });
          return;
        }
      }
    }
  }

  /** One pipeline, in each directory it may run in; command names are recorded for the launch only once. */
  private judgePipeline(item: CommandList['items'][number], depth: number, sink: WalkSink, cwds: readonly string[]): void {
    cwds.forEach((cwd, cwdIndex) => {
      const judge = cwd === this.context.cwd ? this : new CommandLineJudge({ ...this.context, cwd, cwdFromCd: true });
      const where: WalkSink = cwdIndex === 0 ? sink : { decision: sink.decision, spans: null };
      const { pipeline } = item;
      pipeline.commands.forEach((command, index) => {
        const structural =
          item.separator === '&'
            ? deny('background_job', 'background jobs (&) are not allowed')
            : pipeline.negated && index === 0
              ? deny('shell_negation', 'pipeline negation (!) is not supported')
              : pipeline.operators[index] === '|&'
                ? deny('unsupported_redirection', '|& is not supported by /bin/sh')
                : null;
        judge.judgeCommand(command, structural, depth, where, cwd);
      });
    });
  }

  private judgeCommand(command: Command, structural: Judgement | null, depth: number, sink: WalkSink, cwd: string): void {
    if ('bodies' in command) {
      // Only parsed for sandboxed mode, which has its own judge; refused here like the reserved word it starts with.
      sink.decision.add({ text: command.text, ...deny('shell_keyword', `shell control structures are not supported: ${command.type}`) });
      for (const body of command.bodies) this.judgeList(body, depth, sink, [cwd]);
      return;
    }
    if (command.type !== 'simple') {
      const own = command.type === 'subshell' ? deny('subshell', 'subshells ( ) are not supported') : deny('command_group', 'command groups { } are not supported');
      sink.decision.add({ text: command.text, ...(structural ?? own) });
      this.judgeList(command.body, depth, sink, [cwd]);
      return;
    }
    const judged = judgeSimpleCommand(command, this.context);
    const judgement = structural ?? judged.judgement;
    sink.decision.add({ text: command.text, ...judgement });
    const nameWord = command.words[0];
    if (sink.spans !== null && !command.detached && nameWord && judged.executablePath !== null && judgement.verdict !== 'deny') {
      const insertions = judged.insertions.map(({ afterWord, args }) => ({
        afterWord,
        offset: (command.words[afterWord] ?? nameWord).end,
        args,
      }));
      sink.spans.push({ start: nameWord.start, end: nameWord.end, absolute: judged.executablePath, insertions });
    }
    if (judged.inner) this.judgeInner(judged.inner, depth + 1, sink.decision);
    for (const body of substitutionBodies(command)) this.judgeList(body, depth, sink, [cwd]);
  }

  /** Judges what a wrapper would run. Its command names never reach the launch form: the wrapper is denied. */
  private judgeInner(inner: InnerCommand, depth: number, decision: LineDecision): void {
    const text = inner.kind === 'argv' ? inner.words.map((word) => word.raw).join(' ') : inner.text;
    if (depth > MAX_UNWRAP_DEPTH) {
      decision.add({ text, ...deny('nesting_too_deep', 'wrapped commands are nested too deeply') });
      return;
    }
    if (inner.kind === 'code') {
      decision.add({ text, ...deny('inline_code', `inline ${inner.language} code cannot be inspected`) });
      return;
    }
    if (inner.kind === 'argv') {
      const judged = judgeSimpleCommand({ assignments: [], words: inner.words, redirections: [] }, this.context);
      decision.add({ text, ...judged.judgement });
      if (judged.inner) this.judgeInner(judged.inner, depth + 1, decision);
      return;
    }
    let parsed: ParsedCommandLine;
    try {
      parsed = parseShellCommand(inner.text);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      decision.add({ text, ...syntaxDenial(error) });
      return;
    }
    if (parsed.hasComment) decision.add({ text: '#', ...deny('shell_comment', 'comments are not accepted in commands') });
    this.judgeList(parsed.list, depth, { decision, spans: null }, [this.context.cwd]);
  }
}

/** Seed wording for quoting problems; other syntax problems say what was not understood. */
export function syntaxDenial(error: ShellSyntaxError): Judgement {
  if (error instanceof CommandTooComplex) {
    return deny('command_too_complex', `command line holds ${error.message} (at most ${error.limit.max} ${error.limit.what} are judged per line)`);
  }
  if (error.reservedWord !== null) {
    return deny('shell_keyword', `shell control structures are not supported: ${error.reservedWord}`);
  }
  return error.quoting
    ? deny('invalid_quoting', 'command quoting is invalid')
    : deny('invalid_syntax', `command syntax is not supported: ${error.message}`);
}

function substitutionBodies(command: SimpleCommand): CommandList[] {
  if (!hasExpansion(command.assignments) && !hasExpansion(command.words) && command.redirections.length === 0) return [];
  const words = [...command.assignments, ...command.words, ...command.redirections.map((redirection) => redirection.target)];
  return words.flatMap((word) => word.expansions.flatMap((expansion) => (expansion.body ? [expansion.body] : [])));
}

function hasExpansion(words: SimpleCommand['words']): boolean {
  for (const word of words) if (word.expansions.length > 0) return true;
  return false;
}

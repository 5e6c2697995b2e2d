import { ShellSyntaxError } from '../../domain/policy/policy-errors.js';
import type { Command, CommandList, ParsedCommandLine, Redirection, SimpleCommand, Word } from '../shell/shell-ast.js';
import { parseShellCommand } from '../shell/shell-parser.js';
import { isCdBuiltin, judgeCd, MAX_CANDIDATE_DIRECTORIES } from './cd-builtin.js';
import type { JudgingMode, PipelineShapeJudgement } from './judging-mode.js';
import { LineDecision, type LineOutcome } from './line-decision.js';
import { deny, type JudgeContext, type Judgement } from './rules/judgement.js';
import type { InnerCommand } from './rules/wrapper-unwrap.js';
import type { SimpleCommandMemo } from './simple-command-memo.js';
import { syntaxDenial } from './syntax-denial.js';

export type { JudgedPart } from './line-decision.js';

/** Where a command name sits in the line, and the trusted executable it resolves to. */
export interface ExecutableSpan {
  readonly start: number;
  readonly end: number;
  readonly absolute: string;
  /** Arguments the launch adds: after word `afterWord` of the command, which ends at `offset` in the line. */
  readonly insertions: readonly {
    readonly afterWord: number;
    readonly offset: number;
    readonly args: readonly string[];
  }[];
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
  /** Null inside what a wrapper would run: those names never reach the launch form. */
  readonly spans: ExecutableSpan[] | null;
}

/** Wrappers inside wrappers (`sudo env sh -c "timeout 1 ..."`) are unwrapped this deep, then refused. */
const MAX_UNWRAP_DEPTH = 8;

const COMMENT = deny('shell_comment', 'comments are not accepted in commands');

/**
 * The one walk of a parsed line, in every mode: pipelines, lists, structures, substitutions and what wrappers and
 * shells would run. Each judged part is folded into the line's decision and each command name recorded for the
 * launch as it is met, so the engine needs no further pass. What each node comes to is the mode's answer
 * (judging-mode.ts); the walk itself never asks which mode it is in.
 */
export class LineWalker {
  private readonly judgeSimpleCommand: JudgingMode['judgeSimple'];

  constructor(
    private readonly mode: JudgingMode,
    private readonly context: JudgeContext,
    /** Judgements of repeated commands, for this line only; without it every command is judged. */
    memo?: SimpleCommandMemo,
  ) {
    const judgeSimple = mode.judgeSimple.bind(mode);
    this.judgeSimpleCommand = memo === undefined ? judgeSimple : (command, at) => memo.judge(command, at, judgeSimple);
  }

  judgeLine(parsed: ParsedCommandLine): LineJudgement {
    const sink: WalkSink = { decision: new LineDecision(), spans: [] };
    // A comment hides nothing from the parser, but one shell's comment can be another's word: refused in every mode.
    if (parsed.hasComment) sink.decision.addJudgement('#', COMMENT);
    this.judgeList(parsed.list, 0, sink, this.context, [this.context.cwd]);
    return { outcome: sink.decision.outcome(), executableSpans: sink.spans ?? [] };
  }

  /**
   * Judges a list in every directory it may run in: `cwds` starts as the request's cwd (or where the enclosing list
   * was) and changes with each `cd` builtin, when the mode follows them. A cd may fail (a missing or unreadable
   * directory): its `&&` chain is then skipped, but what follows a `;` or `||` runs where the line was, so from
   * there on both directories count.
   */
  private judgeList(
    list: CommandList,
    depth: number,
    sink: WalkSink,
    context: JudgeContext,
    startCwds: readonly string[],
  ): void {
    let cwds = startCwds;
    let ifCdFailed: readonly string[] = [];
    for (const item of list.items) {
      const { pipeline } = item;
      const lone = pipeline.commands.length === 1 ? pipeline.commands[0] : undefined;
      if (
        this.mode.followsCd &&
        lone !== undefined &&
        lone.type === 'simple' &&
        isCdBuiltin(lone) &&
        item.separator !== '&' &&
        !pipeline.negated
      ) {
        const judged = judgeCd(lone, cwds, context.inspector);
        sink.decision.addJudgement(lone.text, judged.judgement);
        ifCdFailed = [...new Set([...ifCdFailed, ...cwds])];
        cwds = judged.cwds;
      } else {
        this.judgePipeline(item, depth, sink, context, cwds);
      }
      if (item.separator !== '&&' && ifCdFailed.length > 0) {
        cwds = [...new Set([...cwds, ...ifCdFailed])];
        ifCdFailed = [];
        if (cwds.length > MAX_CANDIDATE_DIRECTORIES) {
          sink.decision.addJudgement(
            'cd',
            deny('cd_too_many', `the line could run in more than ${MAX_CANDIDATE_DIRECTORIES} directories`),
          );
          return;
        }
      }
    }
  }

  /** One pipeline, in each directory it may run in; command names are recorded for the launch only once. */
  private judgePipeline(
    item: CommandList['items'][number],
    depth: number,
    sink: WalkSink,
    context: JudgeContext,
    cwds: readonly string[],
  ): void {
    cwds.forEach((cwd, cwdIndex) => {
      const where = cwd === context.cwd ? context : { ...context, cwd, cwdFromCd: true };
      const into: WalkSink = cwdIndex === 0 ? sink : { decision: sink.decision, spans: null };
      item.pipeline.commands.forEach((command, index) => {
        this.judgeCommand(command, this.mode.pipelineShape(item, index), depth, into, where);
      });
    });
  }

  private judgeCommand(
    command: Command,
    shape: PipelineShapeJudgement | null,
    depth: number,
    sink: WalkSink,
    context: JudgeContext,
  ): void {
    if (shape?.placement === 'before') sink.decision.addJudgement(command.text, shape.judgement);
    const imposed = shape?.placement === 'instead' ? shape.judgement : null;
    if (command.type === 'simple') {
      this.judgeSimple(command, imposed, depth, sink, context, true);
      return;
    }
    sink.decision.addJudgement(command.text, imposed ?? this.mode.judgeStructure(command, context));
    if (this.mode.walksStructureSubstitutions) {
      const words = 'bodies' in command ? command.words : [];
      for (const body of substitutionBodies(words, command.redirections))
        this.judgeList(body, depth, sink, context, [context.cwd]);
    }
    for (const body of 'bodies' in command ? command.bodies : [command.body])
      this.judgeList(body, depth, sink, context, [context.cwd]);
  }

  /** A simple command (or what a wrapper runs as an argv); `imposed` is the pipeline shape's verdict on it. */
  private judgeSimple(
    command: SimpleCommand,
    imposed: Judgement | null,
    depth: number,
    sink: WalkSink,
    context: JudgeContext,
    walkSubstitutions: boolean,
  ): void {
    const judged = this.judgeSimpleCommand(command, context);
    const judgement = imposed ?? judged.judgement;
    sink.decision.addJudgement(command.text, judgement);
    const nameWord = command.words[0];
    if (
      sink.spans !== null &&
      !command.detached &&
      nameWord &&
      judged.executablePath !== null &&
      judgement.verdict !== 'deny'
    ) {
      const insertions = judged.insertions.map(({ afterWord, args }) => ({
        afterWord,
        offset: (command.words[afterWord] ?? nameWord).end,
        args,
      }));
      sink.spans.push({ start: nameWord.start, end: nameWord.end, absolute: judged.executablePath, insertions });
    }
    if (judged.inner) this.judgeInner(judged.inner, depth + 1, sink.decision, context);
    if (!walkSubstitutions) return;
    if (!hasExpansion(command.assignments) && !hasExpansion(command.words) && command.redirections.length === 0) return;
    for (const body of substitutionBodies([...command.assignments, ...command.words], command.redirections)) {
      this.judgeList(body, depth, sink, context, [context.cwd]);
    }
  }

  /** Judges what a wrapper, shell or interpreter would run. Its command names never reach the launch form. */
  private judgeInner(inner: InnerCommand, depth: number, decision: LineDecision, context: JudgeContext): void {
    const text = inner.kind === 'argv' ? inner.words.map((word) => word.raw).join(' ') : inner.text;
    if (depth > MAX_UNWRAP_DEPTH) {
      decision.addJudgement(text, deny('nesting_too_deep', 'wrapped commands are nested too deeply'));
      return;
    }
    if (inner.kind === 'code') {
      decision.addJudgement(text, this.mode.judgeInlineCode(inner.language));
      return;
    }
    const sink: WalkSink = { decision, spans: null };
    if (inner.kind === 'argv') {
      const command: SimpleCommand = {
        type: 'simple',
        text,
        assignments: [],
        words: inner.words,
        redirections: [],
        detached: true,
      };
      this.judgeSimple(command, null, depth, sink, context, this.mode.walksWrappedSubstitutions);
      return;
    }
    let parsed: ParsedCommandLine;
    try {
      parsed = parseShellCommand(inner.text, this.mode.parseOptions);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      decision.addJudgement(text, syntaxDenial(error));
      return;
    }
    if (parsed.hasComment) decision.addJudgement('#', COMMENT);
    this.judgeList(parsed.list, depth, sink, context, [context.cwd]);
  }
}

/** The lists of the command, backtick and process substitutions in these words and redirection targets, in order. */
function substitutionBodies(words: readonly Word[], redirections: readonly Redirection[]): CommandList[] {
  const all = [...words, ...redirections.map((redirection) => redirection.target)];
  return all.flatMap((word) => word.expansions.flatMap((expansion) => (expansion.body ? [expansion.body] : [])));
}

function hasExpansion(words: readonly Word[]): boolean {
  for (const word of words) if (word.expansions.length > 0) return true;
  return false;
}

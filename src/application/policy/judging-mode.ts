import type { CompoundCommand, ControlStructure, ListItem } from '../shell/shell-ast.js';
import type { ParseOptions } from '../shell/shell-parser.js';
import type { JudgeContext, Judgement } from './rules/judgement.js';
import type { CommandShape } from './rules/shell-feature-rule.js';
import type { SimpleCommandJudgement } from './simple-command-judge.js';

/** A judgement the shape of a pipeline imposes on one of its commands (`&`, `!`, `|&`). */
export interface PipelineShapeJudgement {
  readonly judgement: Judgement;
  /** `instead`: the command's part carries this judgement; `before`: a part of its own, ahead of the command's. */
  readonly placement: 'instead' | 'before';
}

/**
 * How a policy mode judges what the one walk of the line (line-walker.ts) meets. The walk is the same in every
 * mode: lists, pipelines, structures, substitutions, and what wrappers and shells would run, each part folded into
 * the line's decision in line order. The mode answers the questions the walk asks at each node. Two exist:
 * catalogue-judging.ts (inspect, confirm, trusted: every program is read by the command catalogue) and
 * sandboxed-judging.ts (the OS sandbox bounds what a program does; the policy keeps a floor).
 */
export interface JudgingMode {
  /** How the line, and every script a shell in it would run, is parsed. */
  readonly parseOptions: ParseOptions;
  /** A `cd` builtin moves where the rest of its list is judged (cd-builtin.ts); otherwise `cd` is a command. */
  readonly followsCd: boolean;
  /** What the pipeline's shape says about its command at `index`, or null when nothing. */
  pipelineShape(item: ListItem, index: number): PipelineShapeJudgement | null;
  /** One simple command: its verdict, the executable the launch names, what a wrapper in it would run. */
  judgeSimple(command: CommandShape, context: JudgeContext): SimpleCommandJudgement;
  /** A subshell, group or control structure on its own; its body is walked and judged part by part. */
  judgeStructure(command: CompoundCommand | ControlStructure, context: JudgeContext): Judgement;
  /** The substitutions in a structure's own words and redirections are walked (a refused structure's are not). */
  readonly walksStructureSubstitutions: boolean;
  /**
   * What a wrapper runs as an argv is walked as a command of its own, substitutions included (sandboxed); otherwise
   * only its words are judged (their substitutions were walked as the wrapper's words).
   */
  readonly walksWrappedSubstitutions: boolean;
  /** Inline interpreter code (`python3 -c`, `node -e`): the policy cannot read it. */
  judgeInlineCode(language: string): Judgement;
}

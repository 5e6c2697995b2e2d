import type { JudgeContext } from './rules/judgement.js';
import type { MemoizedPathInspector } from './memoized-path-inspector.js';
import type { CommandShape } from './rules/shell-feature-rule.js';
import type { SimpleCommandJudgement } from './simple-command-judge.js';

/**
 * Judgements of simple commands already met in this line, for one evaluation. A line repeats commands (`ls;ls;ls`,
 * `git status && git diff && git status`); the same words in the same directory, judged against the same snapshot
 * of the file system, come to the same judgement, so the second one is looked up instead of judged. Only commands
 * whose whole judgement is in their words are kept: no assignment, no redirection (a here-document's body is not in
 * the words), no expansion; and only judgements that listed no directory (a listing spends the evaluation's budget,
 * and carrying the same links again must spend it again). Never shared between evaluations.
 */
export class SimpleCommandMemo {
  private readonly judged = new Map<string, SimpleCommandJudgement>();

  constructor(private readonly inspector: MemoizedPathInspector) {}

  judge(command: CommandShape, context: JudgeContext, judge: (command: CommandShape, context: JudgeContext) => SimpleCommandJudgement): SimpleCommandJudgement {
    const key = keyOf(command, context);
    if (key === null) return judge(command, context);
    const known = this.judged.get(key);
    if (known !== undefined) return known;
    const listings = this.inspector.listings;
    const judged = judge(command, context);
    if (this.inspector.listings === listings) this.judged.set(key, judged);
    return judged;
  }
}

/**
 * The directory (and whether a `cd` in the line chose it) and the words' source text; null when the judgement may
 * depend on more. NUL cannot occur in a judged line (control characters are refused before the parse), so it
 * separates the parts unambiguously; a word's source text determines its value and expansions.
 */
function keyOf(command: CommandShape, context: JudgeContext): string | null {
  if (command.assignments.length > 0 || command.redirections.length > 0 || command.words.length === 0) return null;
  let key = `${context.cwdFromCd === true ? 'cd' : ''}\0${context.cwd}`;
  for (const word of command.words) {
    if (word.expansions.length > 0) return null;
    key += `\0${word.raw}`;
  }
  return key;
}

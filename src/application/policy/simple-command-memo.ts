import type { Word } from '../shell/shell-ast.js';
import type { JudgeContext } from './rules/judgement.js';
import type { MemoizedPathInspector } from './memoized-path-inspector.js';
import type { CommandShape } from './rules/shell-feature-rule.js';
import type { SimpleCommandJudgement } from './simple-command-judge.js';

type Judge = (command: CommandShape, context: JudgeContext) => SimpleCommandJudgement;

/** The first command met under a program name, kept until the name comes back. */
interface FirstOfName {
  readonly command: CommandShape;
  readonly context: JudgeContext;
  readonly judged: SimpleCommandJudgement;
}

/**
 * Judgements of simple commands already met in this line, for one evaluation. A line repeats commands (`ls;ls;ls`,
 * `git status && git diff && git status`); the same words in the same directory, judged against the same snapshot
 * of the file system, come to the same judgement, so a repeat is looked up instead of judged. Only commands whose
 * whole judgement is in their words are kept: no assignment, no redirection (a here-document's body is not in the
 * words), no expansion; and only judgements that listed no directory (a listing spends the evaluation's budget,
 * and carrying the same links again must spend it again). A command's key (its words' text) is built only once its
 * program name has come back in the line, so a line of one long command pays nothing. Never shared between
 * evaluations.
 */
export class SimpleCommandMemo {
  /** By directory (two maps: chosen by a cd of the line, or not), then by the words' text. */
  private readonly judged = new Map<string, Map<string, SimpleCommandJudgement>>();
  private readonly judgedAfterCd = new Map<string, Map<string, SimpleCommandJudgement>>();
  /** Program names met once so far, with their first command (null: it cannot be remembered). */
  private readonly firstOfName = new Map<string, FirstOfName | null>();
  /** Program names met more than once: their commands are remembered. */
  private readonly repeatedNames = new Set<string>();

  constructor(private readonly inspector: MemoizedPathInspector) {}

  judge(command: CommandShape, context: JudgeContext, judge: Judge): SimpleCommandJudgement {
    const name = command.words[0]?.raw;
    if (name === undefined || !rememberable(command)) return judge(command, context);
    if (!this.repeatedNames.has(name)) {
      const first = this.firstOfName.get(name);
      if (first === undefined) {
        const listings = this.inspector.listings;
        const judged = judge(command, context);
        this.firstOfName.set(name, this.inspector.listings === listings ? { command, context, judged } : null);
        return judged;
      }
      // The name came back: from now on its commands are remembered, the first one included.
      this.firstOfName.delete(name);
      this.repeatedNames.add(name);
      if (first !== null) this.inDirectory(first.context).set(wordsKey(first.command), first.judged);
    }
    const remembered = this.inDirectory(context);
    const key = wordsKey(command);
    const known = remembered.get(key);
    if (known !== undefined) return known;
    const listings = this.inspector.listings;
    const judged = judge(command, context);
    if (this.inspector.listings === listings) remembered.set(key, judged);
    return judged;
  }

  private inDirectory(context: JudgeContext): Map<string, SimpleCommandJudgement> {
    const directories = context.cwdFromCd === true ? this.judgedAfterCd : this.judged;
    let remembered = directories.get(context.cwd);
    if (remembered === undefined) {
      remembered = new Map();
      directories.set(context.cwd, remembered);
    }
    return remembered;
  }
}

/** True when the words hold everything the judgement depends on. */
function rememberable(command: CommandShape): boolean {
  if (command.assignments.length > 0 || command.redirections.length > 0) return false;
  for (const word of command.words) if (word.expansions.length > 0) return false;
  return true;
}

/**
 * The words' source text: a word's text determines its value and expansions. NUL cannot occur in a judged line
 * (control characters are refused before the parse), so it separates the words unambiguously; a lone word (`ls`)
 * is its own key.
 */
function wordsKey(command: CommandShape): string {
  const { words } = command;
  let key = words[0]?.raw ?? '';
  for (let index = 1; index < words.length; index += 1) key += `\0${(words[index] as Word).raw}`;
  return key;
}

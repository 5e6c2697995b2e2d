import { ShellSyntaxError } from '../../domain/policy/policy-errors.js';
import { WORD_BREAKS } from './shell-tokens.js';

/**
 * Most words (command names, arguments, assignments, redirection targets) and simple commands one line may hold,
 * backtick bodies included. The default 1 000-character limit cannot reach either (a word or a command takes at
 * least two characters); a raised MAX_COMMAND_LENGTH can, and then the parser stops at the bound, so one
 * evaluation's work (and its event-loop pause) is bounded whatever the length. A long here-document or a long
 * quoted argument is one word and costs nothing here. docs/performance-notes.md has the measured figures.
 */
export const MAX_WORDS_PER_LINE = 2_000;
export const MAX_COMMANDS_PER_LINE = 1_000;

/** Words and simple commands read so far, shared with the parsers of backtick bodies. */
export interface ParseBudget {
  words: number;
  commands: number;
}

/** What ends a list: the line, `)`, `}`, or one of the reserved words that continue a control structure. */
export type ListCloser = 'end' | ')' | '}' | readonly string[];

/**
 * The one empty list every childless node shares. A long line holds its whole tree in memory while it is judged;
 * empty lists per word and per command were a third of its objects (and of the garbage collector's work).
 */
export const NONE: readonly never[] = Object.freeze([]);

/** Nesting of substitutions, subshells and groups; deeper lines are refused instead of recursing further. */
const MAX_NESTING = 16;

/**
 * The reading position in one source text and what every reader of it shares: the nesting depth, the budget,
 * whether a comment was seen, and the small moves (blanks, comments, reserved words) all of them make.
 */
export abstract class ShellCursor {
  protected pos = 0;
  protected hasComment = false;
  protected nesting: number;

  constructor(
    protected readonly src: string,
    /** Parsing a backtick body: offsets do not map back to the original line. */
    protected readonly detached: boolean,
    nesting: number,
    protected readonly controlStructures: boolean,
    protected readonly budget: ParseBudget,
  ) {
    this.nesting = nesting;
  }

  protected nested<T>(parse: () => T): T {
    if (this.nesting + 1 > MAX_NESTING) throw this.syntaxError('substitutions or groups are nested too deeply');
    this.nesting += 1;
    try {
      return parse();
    } finally {
      this.nesting -= 1;
    }
  }

  /** A backtick body one level deeper may still be parsed. */
  protected mayNestOnce(): boolean {
    return this.nesting + 1 <= MAX_NESTING;
  }

  /** `{`, `}` and `!` are reserved words only as whole words (XCU 2.4). */
  protected atReservedWord(word: string): boolean {
    if (!this.src.startsWith(word, this.pos)) return false;
    const after = this.src[this.pos + word.length];
    return after === undefined || WORD_BREAKS.has(after);
  }

  protected skipBlanks(): void {
    for (;;) {
      const c = this.src[this.pos];
      if (c === ' ' || c === '\t') this.pos += 1;
      else if (c === '\\' && this.src[this.pos + 1] === '\n') this.pos += 2;
      else return;
    }
  }

  protected skipComment(): void {
    this.hasComment = true;
    const newline = this.src.indexOf('\n', this.pos);
    this.pos = newline === -1 ? this.src.length : newline;
  }

  protected syntaxError(message: string, quoting = false): ShellSyntaxError {
    return new ShellSyntaxError(message, this.pos, quoting);
  }
}

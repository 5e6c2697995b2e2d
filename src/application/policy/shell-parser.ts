import { CommandTooComplex, ShellSyntaxError } from '../../domain/policy/policy-errors.js';
import type {
  Command,
  CommandList,
  ControlStructure,
  Expansion,
  ListItem,
  ListSeparator,
  ParsedCommandLine,
  PipeOperator,
  Pipeline,
  Redirection,
  RedirectOperator,
  SimpleCommand,
  Word,
  WordFeature,
} from './shell-ast.js';
import { scanArithmeticEnd, scanBacktickBody, scanBracedParameterEnd, scanDollarQuoteEnd } from './shell-scanners.js';

/**
 * A parser for the POSIX shell subset a model may reasonably send (IEEE 1003.1 XCU 2.3-2.10): lists, pipelines,
 * simple commands, quoting, redirections and here-documents. Constructs it does not model (case, functions,
 * unbalanced anything) raise `ShellSyntaxError`, which the policy turns into a denial. It never guesses:
 * whatever it cannot represent faithfully must fail, because the policy judges exactly what this returns.
 */
export function parseShellCommand(source: string, options: ParseOptions = {}): ParsedCommandLine {
  return new ShellParser(source, false, 0, options.controlStructures === true, { words: 0, commands: 0 }).parseLine();
}

export interface ParseOptions {
  /**
   * Also read `for`, `while`, `until` and `if` (sandboxed mode, where the OS sandbox, not the policy, bounds what a
   * command does). Off by default: the other modes refuse control structures as reserved words.
   */
  readonly controlStructures?: boolean;
}

/** Reserved words that open a control structure, when control structures are read. */
const CONTROL_OPENERS = new Set(['for', 'while', 'until', 'if']);

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
interface ParseBudget {
  words: number;
  commands: number;
}

/**
 * The one empty list every childless node shares. A long line holds its whole tree in memory while it is judged;
 * empty lists per word and per command were a third of its objects (and of the garbage collector's work).
 */
const NONE: readonly never[] = Object.freeze([]);

/** Nesting of substitutions, subshells and groups; deeper lines are refused instead of recursing further. */
const MAX_NESTING = 16;

/** Characters that end an unquoted word (XCU 2.3: blanks, newline and operator starts). */
const WORD_BREAKS = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
/** Longest first, so `<<-` wins over `<<` and `<`. */
const REDIRECT_OPERATORS: readonly RedirectOperator[] = ['<<<', '<<-', '&>>', '<<', '<>', '<&', '>>', '>|', '>&', '&>', '<', '>'];
/** Control characters other than tab and newline (NUL included) have no place in a command line. */
const FORBIDDEN_CONTROL = /\p{Cc}/u;
const SPECIAL_PARAMETERS = new Set(['@', '*', '#', '?', '-', '$', '!', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
/**
 * Reserved words of POSIX sh (XCU 2.4) plus bash and ksh keywords. dash reads them as control structures only at
 * the start of a command, and as plain command names after an assignment or redirection; bash reads `[[`, `]]`,
 * `function`, `select`, `time` and `coproc` where dash runs a program. A command name spelled like one is refused
 * wherever it stands, so no line means a control structure to one shell and a program to the other.
 */
const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'case', 'esac', 'while', 'until', 'for', 'in', '{', '}', '!',
  '[[', ']]', 'function', 'select', 'time', 'coproc',
]);
/** Characters after `\` that keep their backslash-escaped meaning inside double quotes (XCU 2.2.3). */
const DOUBLE_QUOTE_ESCAPABLE = new Set(['$', '`', '"', '\\', '\n']);

/** A redirection whose here-document body is filled in once the parser reaches the following line. */
type HereDocumentRedirection = { -readonly [K in keyof Redirection]: Redirection[K] };

interface PendingHereDocument {
  readonly delimiter: string;
  readonly stripTabs: boolean;
  readonly expands: boolean;
  readonly redirection: HereDocumentRedirection;
}

/** What ends a list: the line, `)`, `}`, or one of the reserved words that continue a control structure. */
type ListCloser = 'end' | ')' | '}' | readonly string[];

class ShellParser {
  private pos = 0;
  private hasComment = false;
  private nesting: number;
  private readonly pendingHereDocuments: PendingHereDocument[] = [];

  constructor(
    private readonly src: string,
    /** Parsing a backtick body: offsets do not map back to the original line. */
    private readonly detached: boolean,
    nesting: number,
    private readonly controlStructures: boolean,
    private readonly budget: ParseBudget,
  ) {
    this.nesting = nesting;
  }

  parseLine(): ParsedCommandLine {
    const forbidden = FORBIDDEN_CONTROL.exec(this.src.replace(/[\t\n]/g, ' '));
    if (forbidden) throw new ShellSyntaxError('command contains a control character', forbidden.index, false);
    const list = this.parseList('end');
    if (this.pos < this.src.length) throw this.syntaxError(`unexpected '${this.src[this.pos]}'`);
    if (this.pendingHereDocuments.length > 0) throw this.syntaxError('here-document is not terminated');
    return { list, hasComment: this.hasComment };
  }

  // ---- lists and pipelines -------------------------------------------------------------------------------

  private parseList(closer: ListCloser): CommandList {
    const items: ListItem[] = [];
    this.skipBlankLines();
    while (!this.atListEnd(closer)) {
      const pipeline = this.parsePipeline(closer);
      this.skipBlanks();
      const separator = this.readSeparator();
      items.push({ pipeline, separator });
      if (separator === null) break;
      this.skipBlankLines();
      if ((separator === '&&' || separator === '||') && this.atListEnd(closer)) {
        throw this.syntaxError(`expected a command after '${separator}'`);
      }
    }
    if (items.length === 0) throw this.syntaxError('expected a command');
    return { items };
  }

  private parsePipeline(closer: ListCloser): Pipeline {
    let negated = false;
    if (this.atReservedWord('!')) {
      negated = true;
      this.pos += 1;
      this.skipBlanks();
    }
    const commands: Command[] = [this.parseCommand()];
    const operators: PipeOperator[] = [];
    for (;;) {
      this.skipBlanks();
      let operator: PipeOperator;
      if (this.src.startsWith('|&', this.pos)) operator = '|&';
      else if (this.src[this.pos] === '|' && this.src[this.pos + 1] !== '|') operator = '|';
      else break;
      this.pos += operator.length;
      this.skipBlankLines();
      if (this.atListEnd(closer)) throw this.syntaxError(`expected a command after '${operator}'`);
      operators.push(operator);
      commands.push(this.parseCommand());
    }
    return { negated, commands, operators: operators.length === 0 ? NONE : operators };
  }

  private readSeparator(): ListSeparator | null {
    const here = this.src.slice(this.pos, this.pos + 2);
    if (here === '&&' || here === '||') {
      this.pos += 2;
      return here;
    }
    const c = this.src[this.pos];
    if (c === ';') {
      if (here === ';;' || here === ';&') throw this.syntaxError(`unexpected '${here}'`);
      this.pos += 1;
      return ';';
    }
    if (c === '&') {
      this.pos += 1;
      return '&';
    }
    if (c === '\n') {
      this.consumeNewline();
      return '\n';
    }
    return null;
  }

  private atListEnd(closer: ListCloser): boolean {
    if (this.pos >= this.src.length) return true;
    if (closer === ')') return this.src[this.pos] === ')';
    if (closer === '}') return this.atReservedWord('}');
    if (Array.isArray(closer)) return closer.some((word) => this.atReservedWord(word));
    return false;
  }

  // ---- commands ------------------------------------------------------------------------------------------

  private parseCommand(): Command {
    this.skipBlanks();
    const start = this.pos;
    if (this.src[this.pos] === '(') {
      this.pos += 1;
      const body = this.nested(() => this.parseList(')'));
      if (this.src[this.pos] !== ')') throw this.syntaxError("subshell is not closed with ')'", true);
      this.pos += 1;
      const redirections = this.parseTrailingRedirections();
      return { type: 'subshell', text: this.src.slice(start, this.pos), body, redirections, detached: this.detached };
    }
    if (this.atReservedWord('{')) {
      this.pos += 1;
      const body = this.nested(() => this.parseList('}'));
      if (!this.atReservedWord('}')) throw this.syntaxError("command group is not closed with '}'", true);
      this.pos += 1;
      const redirections = this.parseTrailingRedirections();
      return { type: 'group', text: this.src.slice(start, this.pos), body, redirections, detached: this.detached };
    }
    const opener = this.controlStructures ? [...CONTROL_OPENERS].find((word) => this.atReservedWord(word)) : undefined;
    if (opener !== undefined) return this.nested(() => this.parseControlStructure(opener, start));
    return this.parseSimpleCommand(start);
  }

  private parseControlStructure(opener: string, start: number): ControlStructure {
    this.pos += opener.length;
    const words: Word[] = [];
    const bodies: CommandList[] = [];
    if (opener === 'for') {
      this.skipBlanks();
      const name = this.readWord();
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.raw)) throw this.syntaxError(`'for' needs a variable name, not '${name.raw}'`);
      this.skipBlanks();
      if (this.atReservedWord('in')) {
        this.pos += 2;
        for (;;) {
          this.skipBlanks();
          const c = this.src[this.pos];
          if (c === undefined || c === ';' || c === '\n') break;
          if (WORD_BREAKS.has(c)) throw this.syntaxError(`unexpected '${c}' in a for list`);
          words.push(this.readWord());
        }
      }
      this.skipBlanks();
      if (this.src[this.pos] === ';') this.pos += 1;
      this.skipBlankLines();
      this.expectReserved('do');
      bodies.push(this.parseList(['done']));
      this.expectReserved('done');
    } else if (opener === 'while' || opener === 'until') {
      bodies.push(this.parseList(['do']));
      this.expectReserved('do');
      bodies.push(this.parseList(['done']));
      this.expectReserved('done');
    } else {
      bodies.push(this.parseList(['then']));
      this.expectReserved('then');
      bodies.push(this.parseList(['elif', 'else', 'fi']));
      while (this.atReservedWord('elif')) {
        this.pos += 4;
        bodies.push(this.parseList(['then']));
        this.expectReserved('then');
        bodies.push(this.parseList(['elif', 'else', 'fi']));
      }
      if (this.atReservedWord('else')) {
        this.pos += 4;
        bodies.push(this.parseList(['fi']));
      }
      this.expectReserved('fi');
    }
    const redirections = this.parseTrailingRedirections();
    const type = opener as ControlStructure['type'];
    return { type, text: this.src.slice(start, this.pos), words, bodies, redirections, detached: this.detached };
  }

  private expectReserved(word: string): void {
    this.skipBlankLines();
    if (!this.atReservedWord(word)) throw this.syntaxError(`expected '${word}'`);
    this.pos += word.length;
  }

  private parseTrailingRedirections(): Redirection[] {
    const redirections: Redirection[] = [];
    for (;;) {
      this.skipBlanks();
      const redirection = this.tryRedirection();
      if (!redirection) return redirections;
      redirections.push(redirection);
    }
  }

  private parseSimpleCommand(start: number): SimpleCommand {
    this.budget.commands += 1;
    if (this.budget.commands > MAX_COMMANDS_PER_LINE) {
      throw new CommandTooComplex(`more than ${MAX_COMMANDS_PER_LINE} simple commands`, start, { what: 'commands', max: MAX_COMMANDS_PER_LINE });
    }
    const assignments: Word[] = [];
    const words: Word[] = [];
    const redirections: Redirection[] = [];
    let end = this.pos;
    for (;;) {
      this.skipBlanks();
      if (this.pos >= this.src.length) break;
      const c = this.src[this.pos];
      if (c === '#') {
        this.skipComment();
        break;
      }
      const redirection = this.tryRedirection();
      if (redirection) {
        redirections.push(redirection);
        end = this.pos;
        continue;
      }
      if (c === '(') throw this.syntaxError("unexpected '('");
      if (WORD_BREAKS.has(c ?? '') && !this.atProcessSubstitution()) break;
      const word = this.readWord();
      if (words.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word.raw)) assignments.push(word);
      else {
        // Only an unquoted reserved word is one (`'if'` is a program name); compare the raw text.
        if (words.length === 0 && RESERVED_WORDS.has(word.raw)) {
          throw new ShellSyntaxError(`reserved word '${word.raw}' where a command name belongs`, word.start, false, word.raw);
        }
        words.push(word);
      }
      end = this.pos;
    }
    if (assignments.length === 0 && words.length === 0 && redirections.length === 0) {
      throw this.syntaxError(this.pos < this.src.length ? `unexpected '${this.src[this.pos]}'` : 'expected a command');
    }
    const text = this.src.slice(start, end);
    return {
      type: 'simple',
      text,
      assignments: assignments.length === 0 ? NONE : assignments,
      words,
      redirections: redirections.length === 0 ? NONE : redirections,
      detached: this.detached,
    };
  }

  // ---- redirections and here-documents -------------------------------------------------------------------

  private tryRedirection(): Redirection | null {
    // Most words start with neither a digit nor an operator: answer them without scanning or allocating.
    const first = this.src.charCodeAt(this.pos);
    if (!isDigit(this.src[this.pos]) && first !== 0x3c /* < */ && first !== 0x3e /* > */ && first !== 0x26 /* & */) return null;
    let cursor = this.pos;
    while (cursor < this.src.length && isDigit(this.src[cursor])) cursor += 1;
    const hasFd = cursor > this.pos && (this.src[cursor] === '<' || this.src[cursor] === '>');
    if (!hasFd) cursor = this.pos;
    // dash (our /bin/sh) takes only one digit as a descriptor: `cat 10>&1` runs cat on the file `10`. bash reads
    // descriptor 10. Refuse what the two shells read differently rather than guess.
    if (hasFd && cursor - this.pos > 1) throw this.syntaxError('a file descriptor of more than one digit is ambiguous between shells');
    const operator = REDIRECT_OPERATORS.find((candidate) => this.src.startsWith(candidate, cursor));
    if (!operator || (hasFd && operator.startsWith('&'))) return null;
    if ((operator === '<' || operator === '>') && this.src[cursor + 1] === '(') {
      if (hasFd) throw this.syntaxError('process substitution cannot follow a file descriptor');
      return null; // `<(...)` is a word, read by readWord
    }
    const fd = hasFd ? Number(this.src.slice(this.pos, cursor)) : null;
    this.pos = cursor + operator.length;
    this.skipBlanks();
    const target = this.readWord();
    if (target.raw === '') throw this.syntaxError(`expected a word after '${operator}'`);
    if (operator !== '<<' && operator !== '<<-') return { fd, operator, target };

    if (target.expansions.some((expansion) => expansion.feature !== 'glob')) {
      throw this.syntaxError('here-document delimiter must be a literal word');
    }
    const redirection: HereDocumentRedirection = { fd, operator, target };
    this.pendingHereDocuments.push({
      delimiter: target.value,
      stripTabs: operator === '<<-',
      expands: !/['"\\]/.test(target.raw),
      redirection,
    });
    return redirection;
  }

  private consumeNewline(): void {
    this.pos += 1;
    this.readHereDocumentBodies();
  }

  /** XCU 2.7.4: the bodies start on the line after the operator, in order, each ended by its delimiter line. */
  private readHereDocumentBodies(): void {
    while (this.pendingHereDocuments.length > 0) {
      const pending = this.pendingHereDocuments.shift() as PendingHereDocument;
      let body = '';
      for (;;) {
        if (this.pos >= this.src.length) throw this.syntaxError(`here-document '${pending.delimiter}' is not terminated`);
        const newline = this.src.indexOf('\n', this.pos);
        const lineEnd = newline === -1 ? this.src.length : newline;
        let line = this.src.slice(this.pos, lineEnd);
        if (pending.stripTabs) line = line.replace(/^\t+/, '');
        this.pos = newline === -1 ? this.src.length : newline + 1;
        if (line === pending.delimiter) break;
        body += `${line}\n`;
      }
      pending.redirection.hereDocument = { body, expands: pending.expands };
    }
  }

  // ---- words ---------------------------------------------------------------------------------------------

  private readWord(): Word {
    const start = this.pos;
    this.budget.words += 1;
    if (this.budget.words > MAX_WORDS_PER_LINE) {
      throw new CommandTooComplex(`more than ${MAX_WORDS_PER_LINE} words`, start, { what: 'words', max: MAX_WORDS_PER_LINE });
    }
    const expansions: Expansion[] = [];
    let value = '';
    let unquotedBracket = false;
    // bash expands `{a,b}` and `{1..3}` only: an unquoted `{`, then an unquoted `,` or `..`, then `}`.
    let unquotedBrace = false;
    let braceHasList = false;
    const flag = (feature: WordFeature, text: string) => flagOnce(expansions, feature, text);
    while (this.pos < this.src.length) {
      // A run of ordinary characters is taken in one slice: a long word costs one string, not one per character.
      const runEnd = plainRunEnd(this.src, this.pos, unquotedBrace);
      if (runEnd > this.pos) {
        value += this.src.slice(this.pos, runEnd);
        this.pos = runEnd;
        continue;
      }
      const c = this.src[this.pos] as string;
      if (WORD_BREAKS.has(c)) {
        if (!this.atProcessSubstitution()) break;
        expansions.push(this.readProcessSubstitution());
        continue;
      }
      switch (c) {
        case '\\': {
          const next = this.src[this.pos + 1];
          if (next === undefined) throw this.syntaxError('command ends with a lone backslash', true);
          if (next !== '\n') value += next;
          this.pos += 2;
          break;
        }
        case "'": {
          const end = this.src.indexOf("'", this.pos + 1);
          if (end === -1) throw this.syntaxError('single quote is not closed', true);
          value += this.src.slice(this.pos + 1, end);
          this.pos = end + 1;
          break;
        }
        case '"':
          value += this.readDoubleQuoted(expansions);
          break;
        case '$':
          value += this.readDollar(expansions, false);
          break;
        case '`':
          expansions.push(this.readBacktick(false));
          break;
        case '*':
        case '?':
          flag('glob', c);
          value += c;
          this.pos += 1;
          break;
        case '[':
          unquotedBracket = true;
          value += c;
          this.pos += 1;
          break;
        case ']':
          if (unquotedBracket) flag('glob', '[...]');
          value += c;
          this.pos += 1;
          break;
        case '{':
          unquotedBrace = true;
          value += c;
          this.pos += 1;
          break;
        case ',':
        case '.':
          if (unquotedBrace && (c === ',' || this.src[this.pos - 1] === '.')) braceHasList = true;
          value += c;
          this.pos += 1;
          break;
        case '}':
          if (unquotedBrace && braceHasList) flag('brace', '{...}');
          value += c;
          this.pos += 1;
          break;
        case '~': {
          const previous = this.src[this.pos - 1];
          if (this.pos === start || previous === '=' || previous === ':') flag('tilde', '~');
          value += c;
          this.pos += 1;
          break;
        }
        default:
          value += c;
          this.pos += 1;
      }
    }
    const raw = this.src.slice(start, this.pos);
    // An unquoted plain word is its own value: keep one string, not two equal ones.
    return { raw, start, end: this.pos, value: value === raw ? raw : value, expansions: expansions.length === 0 ? NONE : expansions };
  }

  /** Reads `"..."`; returns the literal text, adds expansions found inside. */
  private readDoubleQuoted(expansions: Expansion[]): string {
    this.pos += 1;
    let value = '';
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) throw this.syntaxError('double quote is not closed', true);
      if (c === '"') {
        this.pos += 1;
        return value;
      }
      if (c === '\\') {
        const next = this.src[this.pos + 1];
        if (next === undefined) throw this.syntaxError('double quote is not closed', true);
        if (DOUBLE_QUOTE_ESCAPABLE.has(next)) {
          if (next !== '\n') value += next;
        } else {
          value += `\\${next}`;
        }
        this.pos += 2;
      } else if (c === '$') {
        value += this.readDollar(expansions, true);
      } else if (c === '`') {
        expansions.push(this.readBacktick(true));
      } else {
        value += c;
        this.pos += 1;
      }
    }
  }

  /** Reads whatever starts with `$`; returns its literal contribution (only a lone `$` has one). */
  private readDollar(expansions: Expansion[], insideDoubleQuotes: boolean): string {
    const start = this.pos;
    const next = this.src[this.pos + 1];
    if (next === '(' && this.src[this.pos + 2] === '(') {
      this.pos = scanArithmeticEnd(this.src, start + 3);
      expansions.push({ feature: 'arithmetic_expansion', text: this.src.slice(start, this.pos) });
      return '';
    }
    if (next === '(') {
      this.pos += 2;
      const body = this.nested(() => this.parseList(')'));
      if (this.src[this.pos] !== ')') throw this.syntaxError("command substitution is not closed with ')'", true);
      this.pos += 1;
      expansions.push({ feature: 'command_substitution', text: this.src.slice(start, this.pos), body });
      return '';
    }
    if (next === '{') {
      this.pos = scanBracedParameterEnd(this.src, start + 2);
      expansions.push({ feature: 'parameter_expansion', text: this.src.slice(start, this.pos) });
      return '';
    }
    if (next !== undefined && /[A-Za-z_]/.test(next)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(start + 1)) as RegExpExecArray;
      this.pos = start + 1 + name[0].length;
      expansions.push({ feature: 'parameter_expansion', text: this.src.slice(start, this.pos) });
      return '';
    }
    if (next !== undefined && SPECIAL_PARAMETERS.has(next)) {
      this.pos = start + 2;
      expansions.push({ feature: 'parameter_expansion', text: this.src.slice(start, this.pos) });
      return '';
    }
    if (!insideDoubleQuotes && next === "'") {
      this.pos = scanDollarQuoteEnd(this.src, start + 2);
      expansions.push({ feature: 'dollar_quote', text: this.src.slice(start, this.pos) });
      return '';
    }
    if (!insideDoubleQuotes && next === '"') {
      this.pos += 1;
      const value = this.readDoubleQuoted(expansions);
      expansions.push({ feature: 'dollar_quote', text: this.src.slice(start, this.pos) });
      return value;
    }
    this.pos += 1;
    return '$';
  }

  private readBacktick(insideDoubleQuotes: boolean): Expansion {
    const start = this.pos;
    const { body, end } = scanBacktickBody(this.src, start + 1, insideDoubleQuotes);
    this.pos = end;
    if (this.nesting + 1 > MAX_NESTING) throw this.syntaxError('substitutions are nested too deeply');
    const parsed = new ShellParser(body, true, this.nesting + 1, this.controlStructures, this.budget).parseLine();
    if (parsed.hasComment) this.hasComment = true;
    return { feature: 'backtick_substitution', text: this.src.slice(start, this.pos), body: parsed.list };
  }

  private atProcessSubstitution(): boolean {
    const c = this.src[this.pos];
    return (c === '<' || c === '>') && this.src[this.pos + 1] === '(';
  }

  private readProcessSubstitution(): Expansion {
    const start = this.pos;
    this.pos += 2;
    const body = this.nested(() => this.parseList(')'));
    if (this.src[this.pos] !== ')') throw this.syntaxError("process substitution is not closed with ')'", true);
    this.pos += 1;
    return { feature: 'process_substitution', text: this.src.slice(start, this.pos), body };
  }

  // ---- helpers -------------------------------------------------------------------------------------------

  private nested<T>(parse: () => T): T {
    if (this.nesting + 1 > MAX_NESTING) throw this.syntaxError('substitutions or groups are nested too deeply');
    this.nesting += 1;
    try {
      return parse();
    } finally {
      this.nesting -= 1;
    }
  }

  /** `{`, `}` and `!` are reserved words only as whole words (XCU 2.4). */
  private atReservedWord(word: string): boolean {
    if (!this.src.startsWith(word, this.pos)) return false;
    const after = this.src[this.pos + word.length];
    return after === undefined || WORD_BREAKS.has(after);
  }

  private skipBlanks(): void {
    for (;;) {
      const c = this.src[this.pos];
      if (c === ' ' || c === '\t') this.pos += 1;
      else if (c === '\\' && this.src[this.pos + 1] === '\n') this.pos += 2;
      else return;
    }
  }

  /** Blanks, comments and newlines between commands. */
  private skipBlankLines(): void {
    for (;;) {
      this.skipBlanks();
      const c = this.src[this.pos];
      if (c === '#') this.skipComment();
      else if (c === '\n') this.consumeNewline();
      else return;
    }
  }

  private skipComment(): void {
    this.hasComment = true;
    const newline = this.src.indexOf('\n', this.pos);
    this.pos = newline === -1 ? this.src.length : newline;
  }

  private syntaxError(message: string, quoting = false): ShellSyntaxError {
    return new ShellSyntaxError(message, this.pos, quoting);
  }
}

function flagOnce(expansions: Expansion[], feature: WordFeature, text: string): void {
  if (!expansions.some((e) => e.feature === feature && e.text === text)) expansions.push({ feature, text });
}

/**
 * Characters readWord treats specially: word breaks, quotes, escapes, expansions, glob and brace characters, and
 * `~`. `,` and `.` matter only after an unquoted `{` (brace expansion), so they end a run only then.
 */
const SPECIAL_IN_WORD = new Set([...WORD_BREAKS, '\\', "'", '"', '$', '`', '*', '?', '[', ']', '{', '}', '~']);

/** End of the run of ordinary characters starting at `from` (`from` itself when the first one is special). */
function plainRunEnd(src: string, from: number, afterUnquotedBrace: boolean): number {
  let cursor = from;
  while (cursor < src.length) {
    const c = src[cursor] as string;
    if (SPECIAL_IN_WORD.has(c) || (afterUnquotedBrace && (c === ',' || c === '.'))) break;
    cursor += 1;
  }
  return cursor;
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

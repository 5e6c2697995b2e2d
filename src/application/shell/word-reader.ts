import { CommandTooComplex } from '../../domain/policy/policy-errors.js';
import type { CommandList, Expansion, ParsedCommandLine, Word, WordFeature } from './shell-ast.js';
import { MAX_WORDS_PER_LINE, NONE, ShellCursor, type ListCloser } from './shell-cursor.js';
import { scanArithmeticEnd, scanBacktickBody, scanBracedParameterEnd, scanDollarQuoteEnd } from './shell-scanners.js';
import { DOUBLE_QUOTE_ESCAPABLE, plainRunEnd, SPECIAL_PARAMETERS, WORD_BREAKS } from './shell-tokens.js';

/**
 * Reads one word (XCU 2.2, 2.6): quote removal gives its value, and every construct whose value is unknown before
 * the shell runs (substitutions, parameters, globs, tildes, braces) is recorded as an expansion in source order.
 * Command and process substitutions hold a parsed list; reading one is the grammar's job, asked through
 * `parseList` and `parseBacktickBody`.
 */
export abstract class WordReader extends ShellCursor {
  protected abstract parseList(closer: ListCloser): CommandList;
  /** Parses the unescaped body of a backquoted substitution, one level deeper, sharing this line's budget. */
  protected abstract parseBacktickBody(body: string): ParsedCommandLine;

  protected readWord(): Word {
    const start = this.pos;
    this.budget.words += 1;
    if (this.budget.words > MAX_WORDS_PER_LINE) {
      throw new CommandTooComplex(`more than ${MAX_WORDS_PER_LINE} words`, start, {
        what: 'words',
        max: MAX_WORDS_PER_LINE,
      });
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
        expansions.push(this.readProcessSubstitution(value.length));
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
          value += this.readDoubleQuoted(expansions, value.length);
          break;
        case '$':
          value += this.readDollar(expansions, false, value.length);
          break;
        case '`':
          expansions.push(this.readBacktick(false, value.length));
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
    return {
      raw,
      start,
      end: this.pos,
      value: value === raw ? raw : value,
      expansions: expansions.length === 0 ? NONE : expansions,
    };
  }

  /**
   * Reads `"..."`; returns the literal text, adds expansions found inside. `base` is where the returned text will
   * start in the word's value, so each expansion's `at` is `base` plus the text read before it.
   */
  private readDoubleQuoted(expansions: Expansion[], base: number): string {
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
        value += this.readDollar(expansions, true, base + value.length);
      } else if (c === '`') {
        expansions.push(this.readBacktick(true, base + value.length));
      } else {
        value += c;
        this.pos += 1;
      }
    }
  }

  /**
   * Reads whatever starts with `$`; returns its literal contribution (a lone `$`, or the text of `$"..."`). `at` is
   * the offset in the word's value where it stands.
   */
  private readDollar(expansions: Expansion[], insideDoubleQuotes: boolean, at: number): string {
    const start = this.pos;
    const next = this.src[this.pos + 1];
    if (next === '(' && this.src[this.pos + 2] === '(') {
      this.pos = scanArithmeticEnd(this.src, start + 3);
      expansions.push({ feature: 'arithmetic_expansion', text: this.src.slice(start, this.pos), at });
      return '';
    }
    if (next === '(') {
      this.pos += 2;
      const body = this.nested(() => this.parseList(')'));
      if (this.src[this.pos] !== ')') throw this.syntaxError("command substitution is not closed with ')'", true);
      this.pos += 1;
      expansions.push({ feature: 'command_substitution', text: this.src.slice(start, this.pos), body, at });
      return '';
    }
    if (next === '{') {
      this.pos = scanBracedParameterEnd(this.src, start + 2);
      expansions.push({ feature: 'parameter_expansion', text: this.src.slice(start, this.pos), at });
      return '';
    }
    if (next !== undefined && /[A-Za-z_]/.test(next)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(start + 1)) as RegExpExecArray;
      this.pos = start + 1 + name[0].length;
      expansions.push({ feature: 'parameter_expansion', text: this.src.slice(start, this.pos), at });
      return '';
    }
    if (next !== undefined && SPECIAL_PARAMETERS.has(next)) {
      this.pos = start + 2;
      expansions.push({ feature: 'parameter_expansion', text: this.src.slice(start, this.pos), at });
      return '';
    }
    if (!insideDoubleQuotes && next === "'") {
      this.pos = scanDollarQuoteEnd(this.src, start + 2);
      expansions.push({ feature: 'dollar_quote', text: this.src.slice(start, this.pos), at });
      return '';
    }
    if (!insideDoubleQuotes && next === '"') {
      this.pos += 1;
      // The text of `$"..."` is literal in the value (translation aside): a flag, not an insertion, so no `at`.
      const value = this.readDoubleQuoted(expansions, at);
      expansions.push({ feature: 'dollar_quote', text: this.src.slice(start, this.pos) });
      return value;
    }
    this.pos += 1;
    return '$';
  }

  private readBacktick(insideDoubleQuotes: boolean, at: number): Expansion {
    const start = this.pos;
    const { body, end } = scanBacktickBody(this.src, start + 1, insideDoubleQuotes);
    this.pos = end;
    if (!this.mayNestOnce()) throw this.syntaxError('substitutions are nested too deeply');
    const parsed = this.parseBacktickBody(body);
    if (parsed.hasComment) this.hasComment = true;
    return { feature: 'backtick_substitution', text: this.src.slice(start, this.pos), body: parsed.list, at };
  }

  protected atProcessSubstitution(): boolean {
    const c = this.src[this.pos];
    return (c === '<' || c === '>') && this.src[this.pos + 1] === '(';
  }

  private readProcessSubstitution(at: number): Expansion {
    const start = this.pos;
    this.pos += 2;
    const body = this.nested(() => this.parseList(')'));
    if (this.src[this.pos] !== ')') throw this.syntaxError("process substitution is not closed with ')'", true);
    this.pos += 1;
    return { feature: 'process_substitution', text: this.src.slice(start, this.pos), body, at };
  }
}

/**
 * Globs, tildes and braces are flags: each (feature, text) is recorded once per word, with no `at`, because their
 * text stays literal in the value (the shell may expand it later; nothing is inserted where they stand).
 */
function flagOnce(expansions: Expansion[], feature: WordFeature, text: string): void {
  if (!expansions.some((e) => e.feature === feature && e.text === text)) expansions.push({ feature, text });
}

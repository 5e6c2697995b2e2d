import { CommandTooComplex, ShellSyntaxError } from '../../domain/policy/policy-errors.js';
import type {
  Command,
  CommandList,
  ControlStructure,
  ListItem,
  ListSeparator,
  ParsedCommandLine,
  PipeOperator,
  Pipeline,
  Redirection,
  SimpleCommand,
  Word,
} from './shell-ast.js';
import { MAX_COMMANDS_PER_LINE, NONE, type ListCloser } from './shell-cursor.js';
import { RedirectionReader } from './redirection-reader.js';
import { CONTROL_OPENERS, FORBIDDEN_CONTROL, RESERVED_WORDS, WORD_BREAKS } from './shell-tokens.js';

/**
 * The grammar (XCU 2.9): a line is a list of pipelines joined by separators; a pipeline is commands joined by `|`;
 * a command is a simple command, a subshell, a group or (when asked for) a control structure. Words and
 * redirections are read by the layers below.
 */
export class ShellGrammar extends RedirectionReader {
  parseLine(): ParsedCommandLine {
    const forbidden = FORBIDDEN_CONTROL.exec(this.src.replace(/[\t\n]/g, ' '));
    if (forbidden) throw new ShellSyntaxError('command contains a control character', forbidden.index, false);
    const list = this.parseList('end');
    if (this.pos < this.src.length) throw this.syntaxError(`unexpected '${this.src[this.pos]}'`);
    if (this.pendingHereDocuments.length > 0) throw this.syntaxError('here-document is not terminated');
    return { list, hasComment: this.hasComment };
  }

  protected parseBacktickBody(body: string): ParsedCommandLine {
    return new ShellGrammar(body, true, this.nesting + 1, this.controlStructures, this.budget).parseLine();
  }

  // ---- lists and pipelines -------------------------------------------------------------------------------

  protected parseList(closer: ListCloser): CommandList {
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
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.raw))
        throw this.syntaxError(`'for' needs a variable name, not '${name.raw}'`);
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

  private parseSimpleCommand(start: number): SimpleCommand {
    this.budget.commands += 1;
    if (this.budget.commands > MAX_COMMANDS_PER_LINE) {
      throw new CommandTooComplex(`more than ${MAX_COMMANDS_PER_LINE} simple commands`, start, {
        what: 'commands',
        max: MAX_COMMANDS_PER_LINE,
      });
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
          throw new ShellSyntaxError(
            `reserved word '${word.raw}' where a command name belongs`,
            word.start,
            false,
            word.raw,
          );
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
}

import type { Redirection } from './shell-ast.js';
import { isDigit, REDIRECT_OPERATORS } from './shell-tokens.js';
import { WordReader } from './word-reader.js';

/** A redirection whose here-document body is filled in once the parser reaches the following line. */
type HereDocumentRedirection = { -readonly [K in keyof Redirection]: Redirection[K] };

interface PendingHereDocument {
  readonly delimiter: string;
  readonly stripTabs: boolean;
  readonly expands: boolean;
  readonly redirection: HereDocumentRedirection;
}

/**
 * Reads redirections (XCU 2.7) and here-documents, whose bodies start on the line after their operator: a newline
 * the grammar consumes reads the pending bodies first.
 */
export abstract class RedirectionReader extends WordReader {
  protected readonly pendingHereDocuments: PendingHereDocument[] = [];

  protected tryRedirection(): Redirection | null {
    // Most words start with neither a digit nor an operator: answer them without scanning or allocating.
    const first = this.src.charCodeAt(this.pos);
    if (!isDigit(this.src[this.pos]) && first !== 0x3c /* < */ && first !== 0x3e /* > */ && first !== 0x26 /* & */)
      return null;
    let cursor = this.pos;
    while (cursor < this.src.length && isDigit(this.src[cursor])) cursor += 1;
    const hasFd = cursor > this.pos && (this.src[cursor] === '<' || this.src[cursor] === '>');
    if (!hasFd) cursor = this.pos;
    // dash (our /bin/sh) takes only one digit as a descriptor: `cat 10>&1` runs cat on the file `10`. bash reads
    // descriptor 10. Refuse what the two shells read differently rather than guess.
    if (hasFd && cursor - this.pos > 1)
      throw this.syntaxError('a file descriptor of more than one digit is ambiguous between shells');
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

  protected parseTrailingRedirections(): Redirection[] {
    const redirections: Redirection[] = [];
    for (;;) {
      this.skipBlanks();
      const redirection = this.tryRedirection();
      if (!redirection) return redirections;
      redirections.push(redirection);
    }
  }

  protected consumeNewline(): void {
    this.pos += 1;
    this.readHereDocumentBodies();
  }

  /** Blanks, comments and newlines between commands. */
  protected skipBlankLines(): void {
    for (;;) {
      this.skipBlanks();
      const c = this.src[this.pos];
      if (c === '#') this.skipComment();
      else if (c === '\n') this.consumeNewline();
      else return;
    }
  }

  /** XCU 2.7.4: the bodies start on the line after the operator, in order, each ended by its delimiter line. */
  private readHereDocumentBodies(): void {
    while (this.pendingHereDocuments.length > 0) {
      const pending = this.pendingHereDocuments.shift() as PendingHereDocument;
      let body = '';
      for (;;) {
        if (this.pos >= this.src.length)
          throw this.syntaxError(`here-document '${pending.delimiter}' is not terminated`);
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
}

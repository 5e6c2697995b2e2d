import { ShellSyntaxError } from '../../domain/policy/policy-errors.js';

/**
 * Scanners for constructs the parser does not descend into: they only find where the construct ends
 * (offsets into `src`), so the parser can flag it and move on. Unterminated constructs are quoting errors.
 */

/** End (exclusive) of `$((...))` whose body starts at `from`. */
export function scanArithmeticEnd(src: string, from: number): number {
  let depth = 0;
  for (let cursor = from; cursor < src.length; cursor += 1) {
    const c = src[cursor];
    if (c === '(') depth += 1;
    else if (c === ')') {
      if (depth > 0) depth -= 1;
      else if (src[cursor + 1] === ')') return cursor + 2;
      else break;
    }
  }
  throw new ShellSyntaxError('arithmetic expansion is not closed with ))', from, true);
}

/** End (exclusive) of `${...}` whose body starts at `from`; braces nest, quotes and escapes are skipped. */
export function scanBracedParameterEnd(src: string, from: number): number {
  let depth = 0;
  let cursor = from;
  while (cursor < src.length) {
    const c = src[cursor];
    if (c === '\\') cursor += 2;
    else if (c === "'" || c === '"') {
      const end = src.indexOf(c, cursor + 1);
      if (end === -1) break;
      cursor = end + 1;
    } else if (c === '}' && depth === 0) {
      return cursor + 1;
    } else {
      if (c === '{') depth += 1;
      if (c === '}') depth -= 1;
      cursor += 1;
    }
  }
  throw new ShellSyntaxError("parameter expansion is not closed with '}'", from, true);
}

/** End (exclusive) of `$'...'` whose body starts at `from`; a backslash escapes the next character. */
export function scanDollarQuoteEnd(src: string, from: number): number {
  let cursor = from;
  while (cursor < src.length) {
    const c = src[cursor];
    if (c === "'") return cursor + 1;
    cursor += c === '\\' ? 2 : 1;
  }
  throw new ShellSyntaxError("$'...' quote is not closed", from, true);
}

/**
 * The command text of a backquoted substitution whose body starts at `from`, and its end (exclusive).
 * XCU 2.6.3: inside backquotes a backslash escapes only `$`, backquote, backslash (and `"` inside double quotes).
 */
export function scanBacktickBody(
  src: string,
  from: number,
  insideDoubleQuotes: boolean,
): { body: string; end: number } {
  let cursor = from;
  let body = '';
  for (;;) {
    const c = src[cursor];
    if (c === undefined) throw new ShellSyntaxError('backquote is not closed', from, true);
    if (c === '`') return { body, end: cursor + 1 };
    const next = src[cursor + 1];
    if (
      c === '\\' &&
      next !== undefined &&
      (next === '$' || next === '`' || next === '\\' || (insideDoubleQuotes && next === '"'))
    ) {
      body += next;
      cursor += 2;
    } else if (c === '\\' && next === '\n') {
      cursor += 2;
    } else {
      body += c;
      cursor += 1;
    }
  }
}

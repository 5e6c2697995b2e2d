import type { RedirectOperator } from './shell-ast.js';

/**
 * The shell's lexical vocabulary (IEEE 1003.1 XCU 2.2-2.4): what ends a word, the operators, the reserved words and
 * the characters a word reader must look at. The grammar and the word reader share these; nothing here reads input.
 */

/** Characters that end an unquoted word (XCU 2.3: blanks, newline and operator starts). */
export const WORD_BREAKS: ReadonlySet<string> = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
/** Longest first, so `<<-` wins over `<<` and `<`. */
export const REDIRECT_OPERATORS: readonly RedirectOperator[] = [
  '<<<',
  '<<-',
  '&>>',
  '<<',
  '<>',
  '<&',
  '>>',
  '>|',
  '>&',
  '&>',
  '<',
  '>',
];
/** Control characters other than tab and newline (NUL included) have no place in a command line. */
export const FORBIDDEN_CONTROL = /\p{Cc}/u;
export const SPECIAL_PARAMETERS: ReadonlySet<string> = new Set([
  '@',
  '*',
  '#',
  '?',
  '-',
  '$',
  '!',
  '0',
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
]);
/** Reserved words that open a control structure, when control structures are read. */
export const CONTROL_OPENERS: ReadonlySet<string> = new Set(['for', 'while', 'until', 'if']);
/**
 * Reserved words of POSIX sh (XCU 2.4) plus bash and ksh keywords. dash reads them as control structures only at
 * the start of a command, and as plain command names after an assignment or redirection; bash reads `[[`, `]]`,
 * `function`, `select`, `time` and `coproc` where dash runs a program. A command name spelled like one is refused
 * wherever it stands, so no line means a control structure to one shell and a program to the other.
 */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'case',
  'esac',
  'while',
  'until',
  'for',
  'in',
  '{',
  '}',
  '!',
  '[[',
  ']]',
  'function',
  'select',
  'time',
  'coproc',
]);
/** Characters after `\` that keep their backslash-escaped meaning inside double quotes (XCU 2.2.3). */
export const DOUBLE_QUOTE_ESCAPABLE: ReadonlySet<string> = new Set(['$', '`', '"', '\\', '\n']);

/**
 * Characters the word reader treats specially: word breaks, quotes, escapes, expansions, glob and brace characters,
 * and `~`. `,` and `.` matter only after an unquoted `{` (brace expansion), so they end a run only then.
 */
const SPECIAL_IN_WORD = new Set([...WORD_BREAKS, '\\', "'", '"', '$', '`', '*', '?', '[', ']', '{', '}', '~']);

/** End of the run of ordinary characters starting at `from` (`from` itself when the first one is special). */
export function plainRunEnd(src: string, from: number, afterUnquotedBrace: boolean): number {
  let cursor = from;
  while (cursor < src.length) {
    const c = src[cursor] as string;
    if (SPECIAL_IN_WORD.has(c) || (afterUnquotedBrace && (c === ',' || c === '.'))) break;
    cursor += 1;
  }
  return cursor;
}

export function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

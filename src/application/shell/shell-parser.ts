import type { ParsedCommandLine } from './shell-ast.js';
import { ShellGrammar } from './shell-grammar.js';

export { MAX_COMMANDS_PER_LINE, MAX_WORDS_PER_LINE } from './shell-cursor.js';

/**
 * A parser for the POSIX shell subset a model may reasonably send (IEEE 1003.1 XCU 2.3-2.10): lists, pipelines,
 * simple commands, quoting, redirections and here-documents. Constructs it does not model (case, functions,
 * unbalanced anything) raise `ShellSyntaxError`, which the policy turns into a denial. It never guesses:
 * whatever it cannot represent faithfully must fail, because the policy judges exactly what this returns.
 *
 * The reading is layered, one file per job: shell-tokens.ts (the vocabulary), shell-cursor.ts (position, nesting,
 * budget), word-reader.ts (words and their expansions; word-parts.ts reads a word as ordered parts),
 * redirection-reader.ts (redirections, here-documents), shell-grammar.ts (lists, pipelines, commands); shell-ast.ts is
 * what they build.
 */
export function parseShellCommand(source: string, options: ParseOptions = {}): ParsedCommandLine {
  return new ShellGrammar(source, false, 0, options.controlStructures === true, { words: 0, commands: 0 }).parseLine();
}

export interface ParseOptions {
  /**
   * Also read `for`, `while`, `until` and `if` (sandboxed mode, where the OS sandbox, not the policy, bounds what a
   * command does). Off by default: the other modes refuse control structures as reserved words.
   */
  readonly controlStructures?: boolean;
}

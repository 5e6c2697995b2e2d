/**
 * The structure the shell parser produces: a POSIX-shell subset, plus flags for every construct whose effect
 * cannot be known before the shell runs. Positions are offsets into the parsed source; commands found inside
 * backticks carry `detached: true` because their offsets refer to the unescaped backtick body instead.
 */

/** Shell constructs inside a word whose value the policy cannot know statically. */
export type WordFeature =
  | 'command_substitution' // $(...)
  | 'backtick_substitution' // `...`
  | 'process_substitution' // <(...) >(...)  (bash only)
  | 'parameter_expansion' // $x ${x} $1 $?
  | 'arithmetic_expansion' // $((...))
  | 'dollar_quote' // $'...' $"..."  (bash only)
  | 'glob' // * ? [...]
  | 'tilde' // ~ at the start of a word or after = or :
  | 'brace'; // {a,b} {1..3}  (bash only)

export interface Expansion {
  readonly feature: WordFeature;
  /** Source text of the construct, e.g. `$(curl x)` or `$HOME` or `*`. */
  readonly text: string;
  /** The commands of a command, backtick or process substitution. */
  readonly body?: CommandList;
  /**
   * Where the construct's (unknown) value would be inserted in the word's `value`, as an offset. Set on the
   * insertions: parameters, command, backtick and process substitutions, arithmetic, and `$'...'`. Absent on the
   * flags (glob, tilde, brace), whose text is already literal in `value`, and on `$"..."`, whose text is literal
   * there too (its own expansions carry their offsets). word-parts.ts reads a word as ordered parts from it.
   */
  readonly at?: number;
}

export interface Word {
  readonly raw: string;
  readonly start: number;
  readonly end: number;
  /** The word after quote removal; expansions contribute nothing because their value is unknown. */
  readonly value: string;
  /**
   * In source order; each insertion's `at` is an offset in `value`, so offsets never decrease. A word rewritten by
   * the option reader keeps the expansions of the words it was made from, with the offsets they had there.
   */
  readonly expansions: readonly Expansion[];
  /**
   * Set on a word rewritten by the option reader (options/option-reader.ts) as `-xVALUE`: where VALUE starts in
   * `value`. The program's table says which letter takes the value, so the rest is exactly one value.
   */
  readonly optionValueStart?: number;
}

export type RedirectOperator = '<' | '>' | '>>' | '>|' | '<>' | '<&' | '>&' | '&>' | '&>>' | '<<' | '<<-' | '<<<';

export interface HereDocument {
  readonly body: string;
  /** The delimiter was unquoted, so the shell expands `$`, backticks and backslashes in the body. */
  readonly expands: boolean;
}

export interface Redirection {
  /** Explicit file descriptor (`2>`), or null for the operator's default. */
  readonly fd: number | null;
  readonly operator: RedirectOperator;
  /** The file, the duplicated descriptor (`2>&1` → `1`) or the here-document delimiter. */
  readonly target: Word;
  readonly hereDocument?: HereDocument;
}

export interface SimpleCommand {
  readonly type: 'simple';
  readonly text: string;
  /** `NAME=value` words before the command name. */
  readonly assignments: readonly Word[];
  readonly words: readonly Word[];
  readonly redirections: readonly Redirection[];
  readonly detached: boolean;
}

/** `( list )` or `{ list; }`. */
export interface CompoundCommand {
  readonly type: 'subshell' | 'group';
  readonly text: string;
  readonly body: CommandList;
  readonly redirections: readonly Redirection[];
  readonly detached: boolean;
}

/**
 * `for NAME [in WORDS]; do LIST; done`, `while LIST; do LIST; done`, `until ...`, `if LIST; then LIST; [elif ...]
 * [else LIST;] fi`. Only parsed when the caller asks for control structures (sandboxed mode).
 */
export interface ControlStructure {
  readonly type: 'for' | 'while' | 'until' | 'if';
  readonly text: string;
  /** `for`: the words after `in` (they are expanded like arguments). Empty for the others. */
  readonly words: readonly Word[];
  /** Conditions and bodies, in source order. */
  readonly bodies: readonly CommandList[];
  readonly redirections: readonly Redirection[];
  readonly detached: boolean;
}

export type Command = SimpleCommand | CompoundCommand | ControlStructure;

export type PipeOperator = '|' | '|&';

export interface Pipeline {
  /** Started with `!`. */
  readonly negated: boolean;
  readonly commands: readonly Command[];
  /** operators[i] joins commands[i] and commands[i + 1]. */
  readonly operators: readonly PipeOperator[];
}

export type ListSeparator = ';' | '&' | '&&' | '||' | '\n';

export interface ListItem {
  readonly pipeline: Pipeline;
  /** What follows the pipeline; `&` puts it in the background. */
  readonly separator: ListSeparator | null;
}

export interface CommandList {
  readonly items: readonly ListItem[];
}

export interface ParsedCommandLine {
  readonly list: CommandList;
  /** The line (or a substitution in it) contains a `#` comment. */
  readonly hasComment: boolean;
}

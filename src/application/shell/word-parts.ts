import type { Expansion, Word } from './shell-ast.js';

/** One piece of a word read in order: text known now, or an expansion whose value only the shell will know. */
export type WordPart =
  { readonly kind: 'literal'; readonly text: string } | { readonly kind: 'expansion'; readonly expansion: Expansion };

/**
 * The word as an ordered sequence of literal text and insertions (`a"$x"b$(c)d` → `a`, `$x`, `b`, `$(c)`, `d`),
 * cut from `value` at each expansion's `at`. Computed on demand, never stored on the word: a long line holds every
 * word in memory while it is judged. Flags (glob, tilde, brace, `$"..."`) have no `at` and are not parts: their
 * text is in the literal parts already. Adjacent insertions give no empty literal between them; a word with no
 * insertion is one literal part, even when empty (`''` is still an argument).
 */
export function wordParts(word: Word): readonly WordPart[] {
  const { value } = word;
  const parts: WordPart[] = [];
  let cursor = 0;
  for (const expansion of word.expansions) {
    if (expansion.at === undefined) continue;
    // Offsets never decrease and stay inside the value in a word as read; the bound keeps a rewritten word sane.
    const at = Math.min(Math.max(expansion.at, cursor), value.length);
    if (at > cursor) parts.push({ kind: 'literal', text: value.slice(cursor, at) });
    parts.push({ kind: 'expansion', expansion });
    cursor = at;
  }
  if (cursor < value.length || parts.length === 0) parts.push({ kind: 'literal', text: value.slice(cursor) });
  return parts;
}

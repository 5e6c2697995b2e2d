/**
 * Static parts of an answer (the tool catalog: ~26 KB of JSON) serialized once, then spliced into every message
 * that carries them, so a `tools/list` answer costs a copy rather than a walk of every schema. In memory such a part
 * stays the plain array it was: only `serializeMessage` takes the shortcut, and any other `JSON.stringify` (express,
 * a test) still sees the ordinary value.
 */

/** Set only for the duration of one `serializeMessage` call (JSON.stringify is synchronous, so nothing interleaves). */
let collected: string[] | undefined;

/**
 * Unique per process: JSON.stringify escapes every control character in strings, so the raw sentinel can only come
 * from our own `toJSON`, and the random part keeps even an escaped look-alike in a client's string from matching.
 */
const SENTINEL = `\u0000term-mcp-serialized-${Math.random().toString(36).slice(2)}:`;
const QUOTED_SENTINEL = JSON.stringify(SENTINEL).slice(0, -1);

/** Returns a frozen copy of `items` whose JSON text is computed on first use and reused by `serializeMessage`. */
export function serializedOnce<T>(items: readonly T[]): readonly T[] {
  const copy = [...items];
  let text: string | undefined;
  Object.defineProperty(copy, 'toJSON', {
    enumerable: false,
    value: (): unknown => {
      if (collected === undefined) return [...copy];
      text ??= JSON.stringify([...copy]);
      collected.push(text);
      return `${SENTINEL}${collected.length - 1}`;
    },
  });
  return Object.freeze(copy);
}

/** JSON text of a message, with every `serializedOnce` part spliced in from its cached text. */
export function serializeMessage(message: unknown): string {
  collected = [];
  let json: string;
  let parts: string[];
  try {
    json = JSON.stringify(message);
    parts = collected;
  } finally {
    collected = undefined;
  }
  if (parts.length === 0) return json;
  let result = json;
  parts.forEach((part, index) => {
    result = result.replace(`${QUOTED_SENTINEL}${index}"`, () => part);
  });
  return result;
}

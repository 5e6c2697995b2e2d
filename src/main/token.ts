declare const carriedType: unique symbol;

/**
 * A service identifier that carries the type bound to it: a plain symbol at run time (inversify sees nothing else), a
 * typed one for `tsc`. The phantom member is a function of the type both ways, so `Token<A>` and `Token<B>` are
 * unrelated unless A and B are the same type: a dependency list in the wrong order does not compile.
 */
export type Token<T> = symbol & { readonly [carriedType]?: (value: T) => T };

/** The identifier named `term-mcp.<name>` (`Symbol.for`, so a host's copy of the library resolves the same id). */
export function token<T>(name: string): Token<T> {
  return Symbol.for(`term-mcp.${name}`) as Token<T>;
}

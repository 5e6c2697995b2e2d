import { ContainerModule, type ContainerModuleLoadOptions } from 'inversify';
import type { Token } from './token.js';

/**
 * One dependency of a resolved value: its token, or (`optional`) the token of a service that may be unbound or bound to
 * `undefined`, for a parameter that accepts `undefined`.
 */
export type Dependency<T> =
  Token<T> | { readonly serviceIdentifier: Token<T> | Token<Exclude<T, undefined>>; readonly optional: true };

/** The dependency list of a factory, position by position: each token must carry that parameter's type. */
export type Dependencies<D extends readonly unknown[]> = { readonly [K in keyof D]: Dependency<D[K]> };

interface DeactivationSyntax<T> {
  onDeactivation(release: (value: T) => void | Promise<void>): void;
}

/** The part of inversify's binding syntax the server uses, with the bound type and the dependencies checked. */
export interface TypedBinding<T> {
  toConstantValue(value: T): void;
  toResolvedValue(factory: () => T): DeactivationSyntax<T>;
  toResolvedValue<D extends unknown[]>(
    factory: (...dependencies: D) => T,
    dependencies: Dependencies<D>,
  ): DeactivationSyntax<T>;
}

export type TypedBind = <T>(token: Token<T>) => TypedBinding<T>;

/**
 * An inversify `ContainerModule` whose `bind` takes typed tokens only: the factory's parameters and the list of
 * tokens it is resolved from must agree, and the value must be of the token's type. Everything else is inversify's.
 */
export function typedModule(register: (options: { bind: TypedBind }) => void): ContainerModule {
  return new ContainerModule((options: ContainerModuleLoadOptions) => {
    const bind: TypedBind = <T>(id: Token<T>): TypedBinding<T> => {
      const syntax = options.bind<T>(id);
      return {
        toConstantValue(value: T): void {
          syntax.toConstantValue(value);
        },
        toResolvedValue(
          factory: (...dependencies: never[]) => T,
          dependencies: readonly unknown[] = [],
        ): DeactivationSyntax<T> {
          // The tokens are symbols and the optional form is inversify's own ({ serviceIdentifier, optional }); only
          // the types were narrowed above, so the cast hands inversify exactly what it would have been given.
          const bound = syntax.toResolvedValue(factory as (...args: unknown[]) => T, dependencies as never);
          return { onDeactivation: (release) => void bound.onDeactivation(release) };
        },
      };
    };
    register({ bind });
  });
}

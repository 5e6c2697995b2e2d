/** Seed `SecretRedactor`: `key=value` / `key: value` pairs whose key names a secret keep the key, lose the value. */
const SECRET_ASSIGNMENT = /\b(api[_-]?key|authorization|password|secret|token)\b(\s*[:=]\s*)([^\s,;]+)/gi;
const REDACTED = '[REDACTED]';
/** Shorter literals would mangle ordinary output (a one-letter key would erase every such letter). */
const MIN_LITERAL_LENGTH = 8;

/**
 * Removes secrets from text that leaves the server in receipts and command output: first the configured secret
 * values literally (tokens, API keys), then anything that looks like a secret assignment.
 */
export class SecretRedactor {
  private readonly literals: readonly string[];

  constructor(secrets: ReadonlyArray<string | undefined>) {
    const usable = secrets.filter(
      (secret): secret is string => secret !== undefined && secret.length >= MIN_LITERAL_LENGTH,
    );
    // Longest first, so a secret containing another is removed whole.
    this.literals = [...new Set(usable)].sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let result = text;
    for (const literal of this.literals) result = result.split(literal).join(REDACTED);
    return result.replace(SECRET_ASSIGNMENT, `$1$2${REDACTED}`);
  }

  /** Redacts every string inside a JSON-like value (seed: the receipt policy is redacted recursively). */
  redactDeep<T>(value: T): T {
    return this.redactValue(value) as T;
  }

  private redactValue(value: unknown): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (Array.isArray(value)) return value.map((item) => this.redactValue(item));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.redactValue(item)]));
    }
    return value;
  }
}

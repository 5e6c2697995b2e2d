/**
 * Which destinations a sandboxed command may reach through the filtering proxy (ALLOW_NETWORK with
 * TERM_MCP_ALLOWED_DOMAINS). Pure: host names are judged as text; resolving them and checking the addresses they
 * resolve to is the proxy's job.
 */

/** The package registries of npm/yarn, PyPI, crates.io, the Go module proxy and GitHub (git over HTTPS, tarballs). */
export const DEFAULT_ALLOWED_DOMAINS: readonly string[] = Object.freeze([
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'pypi.org',
  'files.pythonhosted.org',
  'crates.io',
  'static.crates.io',
  'index.crates.io',
  'proxy.golang.org',
  'sum.golang.org',
  'github.com',
  'codeload.github.com',
  'objects.githubusercontent.com',
]);

export type HostVerdict =
  | {
      readonly allowed: true;
      /** The host as it will be resolved: lower case, without a trailing dot. */
      readonly host: string;
      /** Whether an entry names this host itself (not a wildcard); only such an entry may lead to a local address. */
      readonly exact: boolean;
      /** An IP literal listed as such: connected to as it is, never resolved. */
      readonly ipLiteral: boolean;
    }
  | { readonly allowed: false; readonly reason: string };

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})+$`);
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** The characters a host may be written with at all; anything else (`@`, `%`, `_`, `/`, spaces...) is refused. */
const HOST_CHARACTERS = /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/;

/**
 * The canonical form of an IP literal (`0x7f.1` and `2130706433` are 127.0.0.1, as the WHATWG URL parser and
 * getaddrinfo read them), or undefined when `host` is a name. A last label made only of digits (or `0x` hex) makes
 * a host an IP literal, so no numeric spelling of an address passes as a name.
 */
function ipLiteral(host: string): string | undefined {
  if (host.startsWith('[')) return canonicalHostname(host);
  const last = host.slice(host.lastIndexOf('.') + 1);
  if (!/^(?:\d+|0x[0-9a-f]*)$/.test(last)) return undefined;
  return canonicalHostname(host) ?? host;
}

function canonicalHostname(host: string): string | undefined {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
}

/** Why an allow-list entry is not valid, or undefined when it is. */
export function allowlistEntryProblem(entry: string): string | undefined {
  const value = entry.toLowerCase();
  if (value === 'localhost' || DOMAIN.test(value))
    return ipLiteral(value) === undefined || IPV4.test(value)
      ? undefined
      : 'a numeric host must be a dotted IPv4 address';
  if (value.startsWith('*.')) {
    const base = value.slice(2);
    return DOMAIN.test(base) && ipLiteral(base) === undefined
      ? undefined
      : 'a wildcard must be "*." followed by a domain with at least two labels (e.g. *.example.com)';
  }
  if (value.startsWith('[') && value.endsWith(']') && canonicalHostname(value) !== undefined) return undefined;
  return 'expected a domain (example.com), a wildcard (*.example.com), localhost, a dotted IPv4 address or a bracketed IPv6 address';
}

/** An allow list of exact hosts and `*.domain` wildcards (strict subdomains: `*.example.com` excludes example.com). */
export class NetworkAllowlist {
  private readonly exactHosts: ReadonlySet<string>;
  private readonly wildcardSuffixes: readonly string[];

  /** Throws a `TypeError` naming the first invalid entry; see {@link allowlistEntryProblem}. */
  constructor(readonly entries: readonly string[]) {
    const exact = new Set<string>();
    const suffixes: string[] = [];
    for (const entry of entries) {
      const problem = allowlistEntryProblem(entry);
      if (problem !== undefined) throw new TypeError(`${entry}: ${problem}`);
      const value = entry.toLowerCase();
      if (value.startsWith('*.')) suffixes.push(value.slice(1));
      else exact.add(ipLiteral(value) ?? value);
    }
    this.exactHosts = exact;
    this.wildcardSuffixes = suffixes;
  }

  /** Judges a host as a client wrote it (a CONNECT target's or an absolute URL's host, without the port). */
  judge(written: string): HostVerdict {
    let host = written.toLowerCase();
    if (host.endsWith('.') && !host.endsWith('..')) host = host.slice(0, -1);
    if (host === '' || !HOST_CHARACTERS.test(host))
      return { allowed: false, reason: `malformed host ${JSON.stringify(written)}` };
    const literal = ipLiteral(host);
    if (literal !== undefined) {
      // Only the canonical spelling of a listed address passes (not 0x7f.1 for a listed 127.0.0.1).
      return literal === host && this.exactHosts.has(literal)
        ? { allowed: true, host: literal, exact: true, ipLiteral: true }
        : { allowed: false, reason: `IP address ${host} is not in the allowed domains` };
    }
    if (!DOMAIN.test(host) && host !== 'localhost')
      return { allowed: false, reason: `malformed host ${JSON.stringify(written)}` };
    if (this.exactHosts.has(host)) return { allowed: true, host, exact: true, ipLiteral: false };
    if (this.wildcardSuffixes.some((suffix) => host.endsWith(suffix)))
      return { allowed: true, host, exact: false, ipLiteral: false };
    return { allowed: false, reason: `${host} is not in the allowed domains` };
  }
}

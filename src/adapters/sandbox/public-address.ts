import net from 'node:net';
import os from 'node:os';

/**
 * What the filtering proxy may connect to: public unicast addresses only (issue 26 item 8). Not loopback, private,
 * link-local (cloud metadata), unique-local, CGNAT (100.64/10), multicast, unspecified, reserved or documentation
 * ranges, nor the IPv6 forms that carry one of them (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64
 * 64:ff9b::/96 and the local-use 64:ff9b:1::/48, 6to4 2002::/16), nor any address of this machine's interfaces.
 */
const NOT_PUBLIC_V4 = (() => {
  const list = new net.BlockList();
  for (const [network, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const) {
    list.addSubnet(network, prefix, 'ipv4');
  }
  return list;
})();

const NOT_PUBLIC_V6 = (() => {
  const list = new net.BlockList();
  for (const [network, prefix] of [
    ['::', 96], // unspecified, loopback and IPv4-compatible (deprecated; ::a.b.c.d)
    ['::ffff:0:0', 96], // IPv4-mapped: judged by the IPv4 inside below, and never public as such here
    ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
    ['100::', 64], // discard-only
    ['2001:db8::', 32], // documentation
    ['fc00::', 7], // unique local
    ['fe80::', 10], // link-local
    ['fec0::', 10], // site-local (deprecated)
    ['ff00::', 8], // multicast
  ] as const) {
    list.addSubnet(network, prefix, 'ipv6');
  }
  return list;
})();

/** The 16 bytes of an IPv6 address (with or without an embedded dotted quad); undefined when it is not one. */
function ipv6Bytes(address: string): number[] | undefined {
  if (net.isIPv6(address) === false) return undefined;
  let text = address.split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const quad = dotted[1].split('.').map(Number);
    const [a = 0, b = 0, c = 0, d = 0] = quad;
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups];
  if (groups.length !== 8) return undefined;
  return groups.flatMap((group) => {
    const value = Number.parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | undefined {
  const bytes = ipv6Bytes(address);
  if (bytes === undefined) return undefined;
  const zeros = (from: number, to: number): boolean => bytes.slice(from, to).every((byte) => byte === 0);
  const quad = (from: number): string => bytes.slice(from, from + 4).join('.');
  if (zeros(0, 10) && ((bytes[10] === 0xff && bytes[11] === 0xff) || (bytes[10] === 0 && bytes[11] === 0)))
    return quad(12);
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return quad(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return quad(2);
  return undefined;
}

/** Every address of this machine's interfaces, now (they change: a VPN comes up, DHCP renews). */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) own.add(normalise(entry.address));
  }
  return own;
}

function normalise(address: string): string {
  const bytes = ipv6Bytes(address);
  if (bytes === undefined) return address;
  const groups: string[] = [];
  for (let index = 0; index < 16; index += 2)
    groups.push((((bytes[index] ?? 0) << 8) | (bytes[index + 1] ?? 0)).toString(16));
  return groups.join(':');
}

/** Why `address` is not a public address the proxy may reach, or undefined when it is one. */
export function whyNotPublic(address: string): string | undefined {
  const family = net.isIP(address);
  if (family === 0) return 'not an IP address';
  if (family === 4 && NOT_PUBLIC_V4.check(address, 'ipv4')) return 'not a public address';
  if (family === 6) {
    const inside = embeddedIpv4(address);
    if (inside !== undefined && NOT_PUBLIC_V4.check(inside, 'ipv4')) return `carries ${inside}, not a public address`;
    if (NOT_PUBLIC_V6.check(address.split('%')[0] ?? address, 'ipv6')) return 'not a public address';
  }
  const own = ownAddresses();
  const inside = family === 6 ? embeddedIpv4(address) : undefined;
  if (own.has(normalise(address)) || (inside !== undefined && own.has(inside)))
    return "one of this machine's own addresses";
  return undefined;
}

/**
 * Loopback as written plainly (127/8, ::1): what TERM_MCP_PROXY_LOOPBACK_PORTS may open, port by port. The IPv6
 * forms that carry 127/8 (::127.0.0.1, ::ffff:127.0.0.1, 64:ff9b::7f00:1) stay refused: no mirror needs them.
 */
export function isLoopback(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return address.startsWith('127.');
  return family === 6 && normalise(address) === '0:0:0:0:0:0:0:1';
}

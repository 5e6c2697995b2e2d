/** Host names that only reach this machine. Binding one of them keeps the server off the network. */
const LOOPBACK_NAMES = new Set(['localhost', '::1', '[::1]']);

/** True for `localhost`, `::1` and the whole `127.0.0.0/8` block. */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase();
  if (LOOPBACK_NAMES.has(name)) return true;
  return /^127(?:\.\d{1,3}){3}$/.test(name);
}

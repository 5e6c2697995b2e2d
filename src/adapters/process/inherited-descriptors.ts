import { closeSync, readdirSync, readFileSync } from 'node:fs';

/** O_CLOEXEC as /proc/<pid>/fdinfo shows it (octal `flags:`). */
const O_CLOEXEC = 0o2000000;
const FIRST_NON_STANDARD = 3;

/**
 * Closes every descriptor above stderr that the server inherited without close-on-exec (a launcher's `exec 30<secret`):
 * spawn passes such descriptors on to every child, so each command (sandboxed or not) could read or write through
 * them. The server's own descriptors all carry O_CLOEXEC (Node and libuv open them so), and so does Node's IPC channel
 * once it is set up; that channel is kept anyway. Linux only (reads /proc/self/fdinfo); elsewhere nothing is closed.
 * Returns the descriptors it closed.
 */
export function closeInheritedDescriptors(keep: readonly number[] = []): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc/self/fdinfo');
  } catch {
    return [];
  }
  const closed: number[] = [];
  for (const entry of entries) {
    const descriptor = Number(entry);
    if (!Number.isInteger(descriptor) || descriptor < FIRST_NON_STANDARD || keep.includes(descriptor)) continue;
    let flags: number;
    try {
      flags = Number.parseInt(
        /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${entry}`, 'utf8'))?.[1] ?? '',
        8,
      );
    } catch {
      continue; // The directory's own descriptor, gone by now.
    }
    if (Number.isNaN(flags) || (flags & O_CLOEXEC) !== 0) continue;
    try {
      closeSync(descriptor);
      closed.push(descriptor);
    } catch {
      // Already closed.
    }
  }
  return closed;
}

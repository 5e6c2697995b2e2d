import { lstatSync, rmdirSync, unlinkSync } from 'node:fs';
import type { Placeholder } from './workspace-protection.js';

/**
 * How long an unused placeholder stays before it is removed: a burst of commands (an agent runs several in a row)
 * reuses the mount points instead of making and removing two dozen entries per command.
 */
const LINGER_MS = 2000;

/**
 * The empty mount points bwrap makes in the workspace for absent protected paths (an empty file, an empty directory),
 * counted over the commands running at once: removing one while another sandbox has it as a mount point would detach
 * that sandbox's placeholder (the kernel detaches mounts on a removed dentry in every namespace), so only after the
 * last command holding it ended (and LINGER_MS without a new one) is it removed, and only while it is still empty and
 * of its kind (never following a link). The rest are removed when the server exits.
 */
export class PlaceholderRegistry {
  private readonly holders = new Map<string, number>();
  private readonly lingering = new Map<string, { placeholder: Placeholder; timer: NodeJS.Timeout }>();
  private exitHook: (() => void) | undefined;

  /** Every placeholder this server made that may still be in the workspace (held or lingering). */
  known(): ReadonlySet<string> {
    return new Set([...this.holders.keys(), ...this.lingering.keys()]);
  }

  hold(placeholders: readonly Placeholder[]): readonly Placeholder[] {
    for (const placeholder of placeholders) {
      const waiting = this.lingering.get(placeholder.path);
      if (waiting) {
        clearTimeout(waiting.timer);
        this.lingering.delete(placeholder.path);
      }
      this.holders.set(placeholder.path, (this.holders.get(placeholder.path) ?? 0) + 1);
    }
    this.ensureExitHook();
    return placeholders;
  }

  release(placeholders: readonly Placeholder[]): void {
    for (const placeholder of placeholders) {
      const count = (this.holders.get(placeholder.path) ?? 1) - 1;
      if (count > 0) {
        this.holders.set(placeholder.path, count);
        continue;
      }
      this.holders.delete(placeholder.path);
      const timer = setTimeout(() => {
        this.lingering.delete(placeholder.path);
        removeIfEmpty(placeholder);
      }, LINGER_MS).unref();
      this.lingering.set(placeholder.path, { placeholder, timer });
    }
  }

  heldPaths(): string[] {
    return [...this.known()];
  }

  private ensureExitHook(): void {
    if (this.exitHook) return;
    this.exitHook = () => {
      for (const { placeholder, timer } of this.lingering.values()) {
        clearTimeout(timer);
        removeIfEmpty(placeholder);
      }
      this.lingering.clear();
    };
    process.once('exit', this.exitHook);
  }
}

function removeIfEmpty({ path, kind }: Placeholder): void {
  try {
    const stats = lstatSync(path);
    // rmdir fails on a directory that is not empty: what a command (or the user) put there stays.
    if (kind === 'dir' && stats.isDirectory()) rmdirSync(path);
    else if (kind === 'file' && stats.isFile() && stats.size === 0) unlinkSync(path);
  } catch {
    // Gone already, not empty, or replaced: nothing of ours to remove.
  }
}

import { lstatSync, rmdirSync, unlinkSync } from 'node:fs';
import type { Placeholder } from './workspace-protection.js';

/**
 * The empty mount points bwrap makes in the workspace for absent protected paths (an empty file, an empty directory),
 * counted over the commands running at once: removing one while another sandbox has it as a mount point would detach
 * that sandbox's placeholder (the kernel detaches mounts on a removed dentry in every namespace), so only the last
 * command to hold it removes it, and only while it is still empty and of its kind (never following a link).
 */
export class PlaceholderRegistry {
  private readonly holders = new Map<string, number>();

  hold(placeholders: readonly Placeholder[]): readonly Placeholder[] {
    for (const { path } of placeholders) this.holders.set(path, (this.holders.get(path) ?? 0) + 1);
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
      removeIfEmpty(placeholder);
    }
  }

  heldPaths(): string[] {
    return [...this.holders.keys()];
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

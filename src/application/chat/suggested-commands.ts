/** Fenced code blocks whose language says they hold shell commands. */
const SHELL_FENCE = /```(?:sh|bash|shell)[ \t]*\r?\n([\s\S]*?)```/g;

/**
 * The commands a model reply suggests: the lines of its ```sh / ```bash / ```shell blocks, with a leading `$ `
 * prompt removed, `\` continuations joined, comments and blank lines skipped, duplicates dropped, at most `limit`.
 * They are only ever planned, never run.
 */
export function extractSuggestedCommands(reply: string, limit: number): string[] {
  const commands: string[] = [];
  for (const block of reply.matchAll(SHELL_FENCE)) {
    for (const line of joinContinuations(block[1] ?? '')) {
      const command = line.trim().replace(/^\$\s+/, '');
      if (command === '' || command.startsWith('#') || commands.includes(command)) continue;
      commands.push(command);
      if (commands.length >= limit) return commands;
    }
  }
  return commands;
}

function joinContinuations(block: string): string[] {
  const lines: string[] = [];
  let pending = '';
  for (const line of block.split(/\r?\n/)) {
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    lines.push(pending + line);
    pending = '';
  }
  if (pending !== '') lines.push(pending);
  return lines;
}

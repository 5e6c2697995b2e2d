import type { LaunchForm } from '../../domain/policy/policy-types.js';
import type { ExecutableSpan } from './line-walker.js';
import type { ParsedCommandLine } from '../shell/shell-ast.js';

/**
 * How an allowed line is launched. A lone simple command without shell features runs as an argv (no shell at
 * all). Anything else runs through the fixed `/bin/sh -c`, with every command name replaced by its quoted trusted
 * path so neither PATH lookup, aliases nor functions can change what runs. `spans` are the command names the walk
 * met, with the trusted path each resolved to.
 */
export function launchFor(parsed: ParsedCommandLine, command: string, spans: readonly ExecutableSpan[]): LaunchForm {
  const single = singlePlainCommand(parsed);
  const span = spans[0];
  if (single && span && spans.length === 1) {
    const argv = [span.absolute, ...single.slice(1)];
    for (const { afterWord, args } of [...span.insertions].sort((a, b) => b.afterWord - a.afterWord))
      argv.splice(afterWord + 1, 0, ...args);
    return { kind: 'argv', argv };
  }
  // One pass from the start of the line: each edit replaces [start, end) (an insertion has start === end), so the
  // script is built in time linear in the line, however many commands it holds. The walk meets names almost in
  // line order (a wrapper's insertions and a substitution's names can interleave), hence the sort.
  const edits: { start: number; end: number; text: string }[] = [];
  let ordered = true;
  for (const { start, end, absolute, insertions } of spans) {
    const previous = edits[edits.length - 1];
    if (previous && (start < previous.start || (start === previous.start && end < previous.end))) ordered = false;
    edits.push({ start, end, text: `'${absolute}'` });
    for (const { offset, args } of insertions) {
      edits.push({ start: offset, end: offset, text: ` ${args.map(quoteForShell).join(' ')}` });
      ordered = false;
    }
  }
  if (!ordered) edits.sort((a, b) => a.start - b.start || a.end - b.end);
  const pieces: string[] = [];
  let cursor = 0;
  for (const edit of edits) {
    pieces.push(command.slice(cursor, edit.start), edit.text);
    cursor = Math.max(cursor, edit.end);
  }
  pieces.push(command.slice(cursor));
  return { kind: 'shell', script: pieces.join('') };
}

/** Single-quotes a fixed argument (the policy's own constants; none contains a single quote). */
function quoteForShell(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}

/** The words of the line when it is exactly one simple command with literal words and nothing else. */
function singlePlainCommand(parsed: ParsedCommandLine): string[] | null {
  const [item, ...others] = parsed.list.items;
  if (!item || others.length > 0 || item.separator === '&' || item.separator === '&&' || item.separator === '||')
    return null;
  const [command, ...piped] = item.pipeline.commands;
  if (!command || piped.length > 0 || item.pipeline.negated || parsed.hasComment || command.type !== 'simple')
    return null;
  if (command.assignments.length > 0 || command.redirections.length > 0) return null;
  if (command.words.some((word) => word.expansions.length > 0)) return null;
  return command.words.map((word) => word.value);
}

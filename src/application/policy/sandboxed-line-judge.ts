import { ShellSyntaxError } from '../../domain/policy/policy-errors.js';
import { SHELLS } from './command-catalog.js';
import type { JudgedPart } from './command-line-judge.js';
import { syntaxDenial } from './command-line-judge.js';
import { allow, deny, needsApproval, type JudgeContext, type Judgement } from './rules/judgement.js';
import { findPathEscape } from './rules/path-rule.js';
import { findServerFile, judgeSandboxedCommand, programName } from './rules/sandboxed-rule.js';
import { unwrapCommand, type InnerCommand } from './rules/wrapper-unwrap.js';
import type { Command, CommandList, ParsedCommandLine, Redirection, Word } from '../shell/shell-ast.js';
import { parseShellCommand } from '../shell/shell-parser.js';

/** `sh -c "sh -c '...'"` is unwrapped this deep, then refused. */
const MAX_UNWRAP_DEPTH = 8;

/** The parse options of sandboxed mode: loops and conditionals are read too. */
export const SANDBOXED_PARSE = Object.freeze({ controlStructures: true });

/**
 * Sandboxed mode's walk over a parsed line: every simple command (in pipelines, lists, groups, subshells, loops,
 * conditionals, substitutions, and in what a shell, `eval` or a wrapper would run) is judged by the sandboxed rule.
 * Interpreter code, scripts and anything else the line runs are not read: the sandbox bounds them.
 */
export class SandboxedLineJudge {
  constructor(private readonly context: JudgeContext) {}

  judgeLine(parsed: ParsedCommandLine): JudgedPart[] {
    const parts: JudgedPart[] = [];
    // A comment hides nothing from the parser, but one shell's comment can be another's word; refused as elsewhere.
    if (parsed.hasComment) parts.push({ text: '#', ...deny('shell_comment', 'comments are not accepted in commands') });
    this.judgeList(parsed.list, 0, parts);
    return parts;
  }

  private judgeList(list: CommandList, depth: number, parts: JudgedPart[]): void {
    for (const item of list.items) {
      item.pipeline.commands.forEach((command, index) => {
        if (item.pipeline.operators[index] === '|&') parts.push({ text: command.text, ...deny('unsupported_redirection', '|& is not supported by /bin/sh') });
        this.judgeCommand(command, depth, parts);
      });
    }
  }

  private judgeCommand(command: Command, depth: number, parts: JudgedPart[]): void {
    if (command.type === 'simple') {
      parts.push({ text: command.text, ...judgeSandboxedCommand(command, this.context) });
      const name = command.words[0];
      if (name !== undefined && name.expansions.length === 0) {
        const program = programName(name.value).toLowerCase();
        const inner = unwrapCommand(program, command.words.slice(1)) ?? hereDocumentScript(program, command.redirections);
        if (inner) this.judgeInner(inner, depth + 1, parts);
      }
      for (const body of substitutionBodies([...command.assignments, ...command.words], command.redirections)) this.judgeList(body, depth, parts);
      return;
    }
    const words = 'bodies' in command ? command.words : [];
    parts.push({ text: command.text, ...this.judgeStructure(words, command.redirections) });
    for (const body of substitutionBodies(words, command.redirections)) this.judgeList(body, depth, parts);
    for (const body of 'bodies' in command ? command.bodies : [command.body]) this.judgeList(body, depth, parts);
  }

  /** A group, subshell or loop runs its body (judged part by part); here only its own words and redirections. */
  private judgeStructure(words: readonly Word[], redirections: readonly Redirection[]): Judgement {
    const serverFile = findServerFile({ assignments: [], words, redirections }, this.context);
    if (serverFile !== null) return deny('server_files', `the server's own policy, configuration and audit log are off limits: ${serverFile}`);
    const escape = findPathEscape(words, redirections, this.context);
    if (escape !== null) return needsApproval('high', 'path_outside_workspace', `path outside the workspace: ${escape}`);
    return allow('low', 'sandboxed_command', 'runs inside the sandbox: workspace writable, rest of the system read-only, no network');
  }

  private judgeInner(inner: InnerCommand, depth: number, parts: JudgedPart[]): void {
    const text = inner.kind === 'argv' ? inner.words.map((word) => word.raw).join(' ') : inner.text;
    if (depth > MAX_UNWRAP_DEPTH) {
      parts.push({ text, ...deny('nesting_too_deep', 'wrapped commands are nested too deeply') });
      return;
    }
    if (inner.kind === 'code') {
      parts.push({ text, ...allow('medium', 'sandboxed_code', `inline ${inner.language} code runs inside the sandbox`, { executesProjectCode: true }) });
      return;
    }
    if (inner.kind === 'argv') {
      this.judgeCommand({ type: 'simple', text, assignments: [], words: inner.words, redirections: [], detached: true }, depth, parts);
      return;
    }
    try {
      const parsed = parseShellCommand(inner.text, SANDBOXED_PARSE);
      if (parsed.hasComment) parts.push({ text: '#', ...deny('shell_comment', 'comments are not accepted in commands') });
      this.judgeList(parsed.list, depth, parts);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      parts.push({ text, ...syntaxDenial(error) });
    }
  }
}

/** `sh <<'EOF' ... EOF`: a shell without `-c` reads its script from the here-document, which is judged like `-c`. */
function hereDocumentScript(program: string, redirections: readonly Redirection[]): InnerCommand | null {
  if (!SHELLS.has(program)) return null;
  const body = redirections.find((redirection) => redirection.hereDocument !== undefined && (redirection.fd === null || redirection.fd === 0))?.hereDocument?.body;
  return body === undefined || body.trim() === '' ? null : { kind: 'script', text: body };
}

function substitutionBodies(words: readonly Word[], redirections: readonly Redirection[]): CommandList[] {
  const all = [...words, ...redirections.map((redirection) => redirection.target)];
  return all.flatMap((word) => word.expansions.flatMap((expansion) => (expansion.body ? [expansion.body] : [])));
}

import { ShellSyntaxError } from '../../domain/policy/policy-errors.js';
import { deny, type JudgeContext, type Judgement } from './rules/judgement.js';
import type { InnerCommand } from './rules/wrapper-unwrap.js';
import type { Command, CommandList, ParsedCommandLine, SimpleCommand } from './shell-ast.js';
import { parseShellCommand } from './shell-parser.js';
import { judgeSimpleCommand } from './simple-command-judge.js';

export interface JudgedPart extends Judgement {
  readonly text: string;
}

/** Where a command name sits in the line, and the trusted executable it resolves to. */
export interface ExecutableSpan {
  readonly start: number;
  readonly end: number;
  readonly absolute: string;
  /** Arguments the launch adds: after word `afterWord` of the command, which ends at `offset` in the line. */
  readonly insertions: readonly { readonly afterWord: number; readonly offset: number; readonly args: readonly string[] }[];
}

export interface LineJudgement {
  /** Every simple command (and structure) judged, in line order, inner commands after their wrapper. */
  readonly parts: readonly JudgedPart[];
  /** Command names of the line itself that would run, for the launch form. */
  readonly executableSpans: readonly ExecutableSpan[];
}

/** Wrappers inside wrappers (`sudo env sh -c "timeout 1 ..."`) are unwrapped this deep, then refused. */
const MAX_UNWRAP_DEPTH = 8;

/** Walks the parsed line and judges every part: pipelines, lists, substitutions and what wrappers would run. */
export class CommandLineJudge {
  constructor(private readonly context: JudgeContext) {}

  judgeLine(parsed: ParsedCommandLine): LineJudgement {
    const parts: JudgedPart[] = [];
    const spans: ExecutableSpan[] = [];
    if (parsed.hasComment) parts.push({ text: '#', ...deny('shell_comment', 'comments are not accepted in commands') });
    this.judgeList(parsed.list, 0, parts, spans);
    return { parts, executableSpans: spans };
  }

  private judgeList(list: CommandList, depth: number, parts: JudgedPart[], spans: ExecutableSpan[]): void {
    for (const item of list.items) {
      const { pipeline } = item;
      pipeline.commands.forEach((command, index) => {
        const structural =
          item.separator === '&'
            ? deny('background_job', 'background jobs (&) are not allowed')
            : pipeline.negated && index === 0
              ? deny('shell_negation', 'pipeline negation (!) is not supported')
              : pipeline.operators[index] === '|&'
                ? deny('unsupported_redirection', '|& is not supported by /bin/sh')
                : null;
        this.judgeCommand(command, structural, depth, parts, spans);
      });
    }
  }

  private judgeCommand(command: Command, structural: Judgement | null, depth: number, parts: JudgedPart[], spans: ExecutableSpan[]): void {
    if ('bodies' in command) {
      // Only parsed for sandboxed mode, which has its own judge; refused here like the reserved word it starts with.
      parts.push({ text: command.text, ...deny('shell_keyword', `shell control structures are not supported: ${command.type}`) });
      for (const body of command.bodies) this.judgeList(body, depth, parts, spans);
      return;
    }
    if (command.type !== 'simple') {
      const own = command.type === 'subshell' ? deny('subshell', 'subshells ( ) are not supported') : deny('command_group', 'command groups { } are not supported');
      parts.push({ text: command.text, ...(structural ?? own) });
      this.judgeList(command.body, depth, parts, spans);
      return;
    }
    const judged = judgeSimpleCommand(command, this.context);
    const judgement = structural ?? judged.judgement;
    parts.push({ text: command.text, ...judgement });
    const nameWord = command.words[0];
    if (!command.detached && nameWord && judged.executablePath !== null && judgement.verdict !== 'deny') {
      const insertions = judged.insertions.map(({ afterWord, args }) => ({
        afterWord,
        offset: (command.words[afterWord] ?? nameWord).end,
        args,
      }));
      spans.push({ start: nameWord.start, end: nameWord.end, absolute: judged.executablePath, insertions });
    }
    if (judged.inner) this.judgeInner(judged.inner, depth + 1, parts);
    for (const body of substitutionBodies(command)) this.judgeList(body, depth, parts, spans);
  }

  /** Judges what a wrapper would run. Its command names never reach the launch form: the wrapper is denied. */
  private judgeInner(inner: InnerCommand, depth: number, parts: JudgedPart[]): void {
    const text = inner.kind === 'argv' ? inner.words.map((word) => word.raw).join(' ') : inner.text;
    if (depth > MAX_UNWRAP_DEPTH) {
      parts.push({ text, ...deny('nesting_too_deep', 'wrapped commands are nested too deeply') });
      return;
    }
    if (inner.kind === 'code') {
      parts.push({ text, ...deny('inline_code', `inline ${inner.language} code cannot be inspected`) });
      return;
    }
    if (inner.kind === 'argv') {
      const judged = judgeSimpleCommand({ assignments: [], words: inner.words, redirections: [] }, this.context);
      parts.push({ text, ...judged.judgement });
      if (judged.inner) this.judgeInner(judged.inner, depth + 1, parts);
      return;
    }
    try {
      const parsed = parseShellCommand(inner.text);
      if (parsed.hasComment) parts.push({ text: '#', ...deny('shell_comment', 'comments are not accepted in commands') });
      this.judgeList(parsed.list, depth, parts, []);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      parts.push({ text, ...syntaxDenial(error) });
    }
  }
}

/** Seed wording for quoting problems; other syntax problems say what was not understood. */
export function syntaxDenial(error: ShellSyntaxError): Judgement {
  if (error.reservedWord !== null) {
    return deny('shell_keyword', `shell control structures are not supported: ${error.reservedWord}`);
  }
  return error.quoting
    ? deny('invalid_quoting', 'command quoting is invalid')
    : deny('invalid_syntax', `command syntax is not supported: ${error.message}`);
}

function substitutionBodies(command: SimpleCommand): CommandList[] {
  const words = [...command.assignments, ...command.words, ...command.redirections.map((redirection) => redirection.target)];
  return words.flatMap((word) => word.expansions.flatMap((expansion) => (expansion.body ? [expansion.body] : [])));
}

import type { Redirection } from '../shell/shell-ast.js';
import { SHELLS } from './command-catalog.js';
import type { JudgingMode } from './judging-mode.js';
import { allow, deny, needsApproval } from './rules/judgement.js';
import { findPathEscape } from './rules/path-rule.js';
import { findServerFile, judgeSandboxedCommand, programName } from './rules/sandboxed-rule.js';
import { unwrapCommand, type InnerCommand } from './rules/wrapper-unwrap.js';

const PIPE_STDERR = Object.freeze({
  judgement: deny('unsupported_redirection', '|& is not supported by /bin/sh'),
  placement: 'before' as const,
});

/**
 * Sandboxed mode: every simple command (in pipelines, lists, groups, subshells, loops, conditionals, substitutions,
 * and in what a shell, `eval` or a wrapper would run) is judged by the sandboxed rule. Interpreter code, scripts
 * and anything else the line runs are not read: the sandbox bounds them. The line is launched as written through
 * /bin/sh, so no executable is named for the launch.
 */
export const SANDBOXED_JUDGING: JudgingMode = Object.freeze({
  parseOptions: Object.freeze({ controlStructures: true }),
  followsCd: false,
  pipelineShape: (item, index) => (item.pipeline.operators[index] === '|&' ? PIPE_STDERR : null),
  judgeSimple(command, context) {
    const judgement = judgeSandboxedCommand(command, context);
    const name = command.words[0];
    let inner: InnerCommand | null = null;
    if (name !== undefined && name.expansions.length === 0) {
      const program = programName(name.value).toLowerCase();
      inner = unwrapCommand(program, command.words.slice(1)) ?? hereDocumentScript(program, command.redirections);
    }
    return { judgement, executablePath: null, inner, insertions: [] };
  },
  /** A group, subshell or loop runs its body (judged part by part); here only its own words and redirections. */
  judgeStructure(command, context) {
    const words = 'bodies' in command ? command.words : [];
    const serverFile = findServerFile({ assignments: [], words, redirections: command.redirections }, context);
    if (serverFile !== null)
      return deny('server_files', `the server's own policy, configuration and audit log are off limits: ${serverFile}`);
    const escape = findPathEscape(words, command.redirections, context);
    if (escape !== null)
      return needsApproval('high', 'path_outside_workspace', `path outside the workspace: ${escape}`);
    return allow(
      'low',
      'sandboxed_command',
      'runs inside the sandbox: workspace writable, rest of the system read-only, no network',
    );
  },
  walksStructureSubstitutions: true,
  walksWrappedSubstitutions: true,
  judgeInlineCode: (language) =>
    allow('medium', 'sandboxed_code', `inline ${language} code runs inside the sandbox`, { executesProjectCode: true }),
} satisfies JudgingMode);

/** `sh <<'EOF' ... EOF`: a shell without `-c` reads its script from the here-document, which is judged like `-c`. */
function hereDocumentScript(program: string, redirections: readonly Redirection[]): InnerCommand | null {
  if (!SHELLS.has(program)) return null;
  const body = redirections.find(
    (redirection) => redirection.hereDocument !== undefined && (redirection.fd === null || redirection.fd === 0),
  )?.hereDocument?.body;
  return body === undefined || body.trim() === '' ? null : { kind: 'script', text: body };
}

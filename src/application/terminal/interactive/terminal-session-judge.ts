import type { ConfinementSummary } from '../../../domain/execution/command-confinement.js';
import type { PolicyDecision, PolicyMode } from '../../../domain/policy/policy-types.js';

/**
 * The shell a terminal session's line runs through. bash, not the fixed /bin/sh (dash): bash replaces itself with a
 * line's last command and, waiting for a foreground program that handled Ctrl-C (python's KeyboardInterrupt), does
 * not die of that SIGINT itself; dash stays the program's parent and dies, which would end the session.
 */
export const TERMINAL_SESSION_SHELL = '/bin/bash';

/** Longest command line a terminal session opens with (the line only names the program; the rest is typed). */
const MAX_LINE_CHARS = 4096;

function decision(
  fields: Pick<PolicyDecision, 'verdict' | 'risk' | 'reasons' | 'matchedRule'>,
  line: string,
): PolicyDecision {
  const executable = line.trim().split(/\s+/)[0] ?? null;
  return {
    ...fields,
    parts: [{ text: line, verdict: fields.verdict, rule: fields.matchedRule, reason: fields.reasons[0] ?? '' }],
    ...(fields.verdict === 'deny'
      ? {}
      : { launch: { kind: 'argv' as const, argv: [TERMINAL_SESSION_SHELL, '-c', line] } }),
    preview: { executable, filesPotentiallyTouched: [], networkRequested: false, executesProjectCode: true },
  };
}

/**
 * The policy of a terminal session (issue 24). What is typed into a terminal cannot be judged by parsing it (a REPL
 * runs `os.system`, a pager runs `!sh`), so the session itself is the plan that is judged: it only opens inside the
 * OS sandbox, which confines everything typed; a human approves opening it in inspect, confirm and trusted (inspect
 * keeps the workspace read-only through the sandbox), and sandboxed mode, whose promise is the sandbox alone, opens
 * it without approval. The line runs through bash.
 */
export function judgeTerminalSession(
  line: string,
  mode: PolicyMode,
  confinement: ConfinementSummary | undefined,
): PolicyDecision {
  if (confinement?.sandbox !== 'bubblewrap') {
    const reasons = [
      'A terminal session needs the OS sandbox: what is typed into it is not judged by the policy, only confined by the sandbox, and the sandbox is off here.',
    ];
    return decision({ verdict: 'deny', risk: 'blocked', reasons, matchedRule: 'terminal_session_needs_sandbox' }, line);
  }
  if (line.trim() === '' || line.includes('\0') || line.length > MAX_LINE_CHARS) {
    const reasons = [
      `The command of a terminal session must be a non-empty line of at most ${String(MAX_LINE_CHARS)} characters without NUL.`,
    ];
    return decision({ verdict: 'deny', risk: 'blocked', reasons, matchedRule: 'terminal_session_line' }, line);
  }
  const confined = `Runs on a terminal inside the sandbox (${confinement.writable_roots.join(', ')} writable, network ${confinement.network}); what is typed is confined, not judged.`;
  if (mode === 'sandboxed') {
    return decision(
      { verdict: 'allow', risk: 'medium', reasons: [confined], matchedRule: 'terminal_session_sandboxed' },
      line,
    );
  }
  const reasons = [`An interactive terminal session needs approval in ${mode} mode.`, confined];
  return decision({ verdict: 'approval_required', risk: 'high', reasons, matchedRule: 'terminal_session' }, line);
}

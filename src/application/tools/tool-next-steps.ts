import type { DomainErrorCode } from '../../domain/error-catalogue.js';
import type { DomainError } from '../../domain/errors.js';
import { isLiveStatus } from '../../domain/execution/execution-types.js';

/**
 * Next steps that name MCP tools, attached to a refusal by the tool layer: the domain's errors say what to do in
 * words that fit every edge (`nextStep`: "plan the command again"), and only here, where the tools are, does that
 * become "call terminal_plan". Each entry reads the error's details, never its message. A code that is not listed
 * keeps the domain's next step (it names no tool). tests/application/tools/tool-next-steps.test.ts checks that no
 * domain file names a tool and that every code listed here has its next step.
 */
/** `undefined` where this case of the error names no tool (the domain's next step stands). */
type ToolNextStep = (details: Readonly<Record<string, unknown>>) => string | undefined;

const NEW_SESSION = 'Start a new session with terminal_plan (omit session_id) and use the session_id it returns.';
const WAIT_OR_CANCEL = 'Wait for it to finish (terminal_read), or cancel it with terminal_cancel, then retry.';

const SESSION_LIMIT: Readonly<Record<string, string>> = Object.freeze({
  principal:
    'Every one of your sessions is running a command: wait for one to finish (terminal_read), or cancel one with terminal_cancel, then retry; or plan in an existing session_id.',
  server:
    'Every session of the server is running a command: wait for one to finish, or cancel one of yours with terminal_cancel, then retry.',
});

export const TOOL_NEXT_STEPS: Readonly<Partial<Record<DomainErrorCode, ToolNextStep>>> = Object.freeze({
  plan_not_found: () => 'Use a plan_id returned by terminal_plan for this session_id.',
  invalid_plan_transition: ({ status }) => {
    if (status === 'approved')
      return 'The plan is already approved: call terminal_execute with its session_id and plan_id.';
    if (typeof status === 'string' && isLiveStatus(status)) {
      return 'The plan is executing: poll terminal_read for its output, or terminal_cancel to stop it.';
    }
    return 'A plan executes at most once: call terminal_retry to create a fresh plan of the same command.';
  },
  plan_running: () => WAIT_OR_CANCEL,
  policy_changed: () => 'The workspace changed since planning: call terminal_plan again and follow the new decision.',
  cwd_changed: () => 'Call terminal_plan again for the directory as it is now.',
  operator_approval_required: ({ approvalId }) =>
    `Ask the user to have an operator approve approval_id ${String(approvalId)} in the term-mcp web UI (operator approvals route), then call terminal_execute.`,
  approval_expired: () =>
    'Call terminal_retry to create a fresh plan (with a new approval_id), and have it approved again.',
  no_command: () => 'Execute a plan with terminal_execute first.',
  plan_not_started: () => 'Call terminal_execute for this plan first.',
  session_expired: () => NEW_SESSION,
  session_evicted: () => NEW_SESSION,
  // The queue scope names no tool: the domain's next step stands.
  session_limit_reached: ({ scope }) => (typeof scope === 'string' ? SESSION_LIMIT[scope] : undefined),
  sandbox_setup_failed: () =>
    "The message is bubblewrap's own and names the path it could not set up: most often a working directory the " +
    'sandbox cannot enter (its permissions) or a path that changed while the sandbox was being made. Links and files in ' +
    'the workspace do not cause this. Fix that path, or ask the user to, then terminal_retry.',
});

/** The next step a tool result shows for a typed error: the tool layer's, where it names a tool, else the domain's. */
export function toolNextStepOf(error: DomainError): string | undefined {
  return TOOL_NEXT_STEPS[error.code]?.(error.details) ?? error.nextStep;
}

// Words for people. The UI chooses what to say and do from an error's code (never from message text meant for the
// model, such as a tool's message or next_step), and says what happened and what the person can do about it. The
// codes are those of the server's error catalogue (src/domain/error-catalogue.ts; tests/static/words.test.ts checks
// that every code named here exists there) plus the UI's own: unreachable, unauthorized, rate_limited, too_large,
// not_available, operator_unauthorized, rpc_error, http_error, server_stopped, not_connected.

/** Codes whose session is gone: never existed, or ended (the catalogue's `not_found`/`expired` session codes). */
export const SESSION_ENDED_CODES = Object.freeze([
  'session_not_found',
  'unknown_session',
  'session_expired',
  'session_evicted',
]);

/** True when the error says this tab's session is gone, so the tab opens a new one. */
export function saysSessionEnded(error) {
  return typeof error?.code === 'string' && SESSION_ENDED_CODES.includes(error.code);
}

export const SENTENCES = {
  unreachable:
    'The term-mcp server is not answering. It may have stopped or restarted: start it again (term-mcp http), then press Reconnect.',
  server_stopped:
    'The term-mcp server was stopped: it shut down gracefully and closed this session on the way. Start it again (term-mcp http), then press Reconnect.',
  unauthorized: 'The server refused this token. Use the bearer token printed by term-mcp http (or TERM_MCP_TOKEN).',
  rate_limited: 'Too many requests in a short time. Wait a moment, then try again.',
  too_large: 'That is larger than the server accepts in one request (MAX_REQUEST_BYTES).',
  session_not_found: 'This session has ended: it expired or was closed. Start a new session to plan again.',
  unknown_session: 'This session has ended: it expired or was closed. Start a new session to plan again.',
  session_expired:
    'This session has ended: it was idle too long, or its one command finished. Start a new session to plan again.',
  session_evicted: 'This session was ended to make room for another one. Start a new session to plan again.',
  session_limit_reached:
    'The server already holds as many sessions as it allows. Close one elsewhere or wait for one to expire.',
  plan_not_found: 'This plan belongs to another session. Plan the command again.',
  plan_blocked: 'The policy blocked this command, so it can be neither approved nor run.',
  invalid_plan_transition: 'This plan has already moved on (approved or run). Use Retry to plan it again.',
  approval_required: 'This plan needs approval before it can run.',
  operator_approval_required: 'On this server an operator approves plans, with the operator token.',
  approval_expired: 'The approval window of this plan has closed. Use Retry to plan it again.',
  approval_mismatch: 'That approval belongs to another plan.',
  approval_not_found: 'That approval is unknown, or it was already used.',
  process_limit_reached: 'Another command is still running in this session. Wait for it to end, or cancel it.',
  plan_running: 'This plan is still running. It can be retried once it ends.',
  policy_changed:
    'Something changed since planning and the policy now judges this command differently. Use Retry to plan it again.',
  cwd_changed: 'The working directory changed since planning. Use Retry to plan it again.',
  policy_denied: 'The policy does not allow this command.',
  path_outside_workspace: 'That directory is outside the workspace.',
  invalid_argument: 'That directory does not exist in the workspace.',
  invalid_arguments: 'The command or the directory is empty or too long.',
  invalid_request: 'The server could not accept this request.',
  chat_not_configured:
    'The planning advisor is off on this server: set DEEPSEEK_API_KEY for term-mcp http and restart it. Planning, running and receipts work without it.',
  chat_unavailable: 'The model did not answer. The terminal tools still work.',
  not_available: 'This server does not offer that feature.',
  rpc_error: 'The server could not handle this request.',
  http_error: 'The server could not handle this request.',
  not_connected: 'The page has not read the server’s settings yet. Press Reconnect.',
};

/** The sentence for an error (a `RequestFailed`, or anything thrown). */
export function sentenceFor(error) {
  const code = typeof error?.code === 'string' ? error.code : '';
  return SENTENCES[code] ?? 'Something went wrong. Try again; if it keeps failing, look at the server log.';
}

export const STATUS_WORDS = {
  planned: 'Planned',
  blocked: 'Blocked',
  approved: 'Approved',
  running: 'Running',
  paused: 'Paused',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
  timed_out: 'Timed out',
};

export function statusWord(status) {
  return STATUS_WORDS[status] ?? String(status);
}

/** What a card says under its command: the state of the plan in a person's terms. */
export function planNote(plan, approvalChannel) {
  switch (plan.status) {
    case 'blocked':
      return 'The policy blocked this command. It cannot run.';
    case 'planned':
      if (!plan.policy.requires_approval) return 'Allowed by the policy. Nothing runs until you press Run.';
      return approvalChannel === 'operator'
        ? 'Waiting for an operator to approve it (Operator approvals, below).'
        : 'Needs your approval before it can run.';
    case 'approved':
      return 'Approved. Nothing runs until you press Run.';
    case 'running':
      return 'Running now.';
    case 'paused':
      return 'Paused. Resume or cancel it from the execution strip.';
    case 'succeeded':
      return 'Finished successfully.';
    case 'failed':
      return 'Finished with an error.';
    case 'cancelled':
      return 'Cancelled.';
    case 'timed_out':
      return 'Stopped: it reached its time limit.';
    default:
      return '';
  }
}

export function formatBytes(bytes) {
  if (typeof bytes !== 'number') return '—';
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} B`;
}

export function formatDuration(ms) {
  if (typeof ms !== 'number') return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatSeconds(seconds) {
  if (typeof seconds !== 'number') return '—';
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

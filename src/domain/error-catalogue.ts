/**
 * The error catalogue of the domain: every typed error code and its category, in one module (as fastify keeps every
 * framework error in lib/errors.js). The domain knows codes and categories only; each edge maps them to its own wire
 * (application/mcp/json-rpc-errors.ts for JSON-RPC by protocol era, application/tools/tool-refusal.ts for tool
 * results, adapters/web/web-error-codes.ts for the web routes' statuses, adapters/http/http-statuses.ts for the
 * transport). The typed errors (`DomainError` subclasses) carry a code of this catalogue, which the compiler checks.
 */

/** What kind of failure it is: what a client or a person can do about it follows from this, not from the words. */
export type ErrorCategory =
  /** The request is malformed or out of range: fix it and send it again. */
  | 'invalid'
  /** The thing named does not exist (never did, or is forgotten). */
  | 'not_found'
  /** The thing existed and ended (timed out, evicted, finished). */
  | 'expired'
  /** The thing is in a state that does not allow this now. */
  | 'conflict'
  /** A rule (the policy, an approval, a credential, an origin) refuses it. */
  | 'denied'
  /** A quota or a size limit is reached. */
  | 'limit'
  /** A service this needs is not there (sandbox, model provider). */
  | 'unavailable'
  /** The server failed; the client sees no detail. */
  | 'internal';

interface DomainErrorEntry {
  readonly category: ErrorCategory;
}

/** Every typed error code. A `DomainError` subclass whose code is missing here does not compile. */
export const DOMAIN_ERRORS = Object.freeze({
  // src/domain/errors.ts
  invalid_argument: { category: 'invalid' },
  invalid_cursor: { category: 'invalid' },
  configuration_error: { category: 'invalid' },
  // src/domain/chat/chat-errors.ts
  chat_not_configured: { category: 'unavailable' },
  chat_provider_error: { category: 'unavailable' },
  // src/domain/execution/execution-errors.ts
  session_not_found: { category: 'not_found' },
  session_expired: { category: 'expired' },
  session_evicted: { category: 'expired' },
  session_limit_reached: { category: 'limit' },
  process_limit_reached: { category: 'limit' },
  command_not_found: { category: 'not_found' },
  command_not_running: { category: 'conflict' },
  input_closed: { category: 'conflict' },
  output_range_invalid: { category: 'invalid' },
  sandbox_unavailable: { category: 'unavailable' },
  sandbox_setup_failed: { category: 'conflict' },
  // src/domain/policy/policy-errors.ts
  policy_file_invalid: { category: 'invalid' },
  shell_syntax_error: { category: 'invalid' },
  // src/domain/prompts/prompt-errors.ts (2026-07-28 server/prompts: an unknown name is -32602)
  unknown_prompt: { category: 'not_found' },
  // src/domain/terminal/receipt-errors.ts
  receipt_not_redactable: { category: 'invalid' },
  // src/domain/terminal/terminal-errors.ts
  plan_not_found: { category: 'not_found' },
  plan_blocked: { category: 'denied' },
  policy_denied: { category: 'denied' },
  invalid_plan_transition: { category: 'conflict' },
  approval_required: { category: 'denied' },
  plan_running: { category: 'conflict' },
  policy_changed: { category: 'conflict' },
  cwd_changed: { category: 'conflict' },
  operator_approval_required: { category: 'denied' },
  approval_expired: { category: 'expired' },
  approval_not_found: { category: 'not_found' },
  approval_mismatch: { category: 'denied' },
  no_command: { category: 'conflict' },
  plan_not_started: { category: 'conflict' },
  // src/domain/workspace/workspace-errors.ts
  resource_not_found: { category: 'not_found' },
  workspace_file_not_found: { category: 'not_found' },
  path_outside_workspace: { category: 'denied' },
  file_not_readable: { category: 'invalid' },
  resource_not_text: { category: 'invalid' },
  resource_too_large: { category: 'limit' },
  unsupported_resource_uri: { category: 'invalid' },
  // src/application/tools: an unknown tool, and arguments that fail the tool's inputSchema.
  unknown_tool: { category: 'not_found' },
  invalid_arguments: { category: 'invalid' },
} as const satisfies Record<string, DomainErrorEntry>);

export type DomainErrorCode = keyof typeof DOMAIN_ERRORS;

export function isDomainErrorCode(code: string): code is DomainErrorCode {
  return Object.hasOwn(DOMAIN_ERRORS, code);
}

import { TASKS_EXTENSION } from '../tasks/task-extension.js';

/** Who this server is and what it offers: the same answer in `server/discover` and `initialize`. */
export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
}

/**
 * Advertised exactly as the compatibility page promises: tools, resources and prompts, no list-changed
 * notifications, no subscriptions, nothing else (no logging, completions, extensions).
 */
export const SERVER_CAPABILITIES = Object.freeze({
  tools: Object.freeze({ listChanged: false }),
  resources: Object.freeze({ subscribe: false, listChanged: false }),
  prompts: Object.freeze({ listChanged: false }),
});

/**
 * What `server/discover` advertises to modern clients: the same, plus the tasks extension (2026-07-28 versioning,
 * "Extensions"; ext-tasks). Legacy `initialize` does not offer it: the 2025-11-25 task shape is not implemented.
 */
export const MODERN_SERVER_CAPABILITIES = Object.freeze({
  ...SERVER_CAPABILITIES,
  extensions: Object.freeze({ [TASKS_EXTENSION]: Object.freeze({}) }),
});

export const SERVER_INSTRUCTIONS =
  'Plan every terminal command with terminal_plan first; it never executes. Execute only plans the policy allows, ' +
  'get approval when a plan requires it, then read output with terminal_read and inspect the signed receipt. ' +
  'Respect denials: do not rephrase a denied command to get around the policy.';

/** Cache hints (2026-07-28 server/utilities/caching): results depend on the caller's authorization, so `private`. */
export interface CachePolicy {
  discoverTtlMs: number;
  catalogTtlMs: number;
  workspaceTtlMs: number;
}

export const DEFAULT_CACHE_POLICY: CachePolicy = Object.freeze({
  discoverTtlMs: 3_600_000,
  catalogTtlMs: 300_000,
  workspaceTtlMs: 0,
});

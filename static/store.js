// The page's one state and its one render. Every change goes through `update`, which replaces the state (the
// state and the entries in it are never mutated: a changed entry is a new object) and renders it at once, so the
// DOM always shows the state and reading code can compare entries by identity.

/**
 * @typedef {object} Entry  one plan of the session, as its card shows it
 * @property {object} plan          the plan as the server answered it (status kept current by the page)
 * @property {number} number        PLAN 01, 02… in this session
 * @property {string} commandId     the command that ran it ('' until Run)
 * @property {boolean} hasReceipt
 * @property {boolean} busy         Run was pressed and the server has not answered yet
 * @property {string|null} output   what the command wrote (stdout then stderr as read), null until known
 * @property {boolean} collapsed    a finished card folded to its head and command
 */

export const INITIAL_STATE = Object.freeze({
  /** 'locked' (the token gate) or 'console'. */
  view: 'locked',
  gateError: '',
  connection: { label: 'Locked', kind: 'locked' },
  /** `GET ui/config` and `GET mcp/info` (null when the server has no such route). */
  config: null,
  info: null,
  scenarios: [],
  sessionId: '',
  /** @type {readonly Entry[]} oldest first */
  entries: [],
  /** The command being followed: `{planId, commandId}`. */
  active: null,
  strip: { status: 'idle', detail: '' },
  /** `{message, action}`: action is 'reconnect', 'new-session' or '' (only Dismiss). */
  banner: null,
  planning: false,
  /** What the output search looks for ('' shows every card). */
  search: '',
});

export function createStore(initial, render) {
  let state = initial;
  const listeners = [];
  return {
    get state() {
      return state;
    },
    /** Replaces the fields of `change` (or of what `change(state)` returns), then renders. */
    update(change) {
      const patch = typeof change === 'function' ? change(state) : change;
      if (!patch) return;
      const previous = state;
      state = Object.freeze({ ...state, ...patch });
      render(state, previous);
      for (const listener of listeners) listener(state, previous);
    },
    /** Called after every render with the new and the previous state (to persist, for instance). */
    subscribe(listener) {
      listeners.push(listener);
    },
  };
}

/** The entries with the one of `planId` replaced by `change(entry)` merged into it. */
export function withEntry(entries, planId, change) {
  return entries.map((entry) => (entry.plan.id === planId ? { ...entry, ...change(entry) } : entry));
}

/** The entries with the plan of `planId` given the fields of `planChange`. */
export function withPlan(entries, planId, planChange) {
  return withEntry(entries, planId, (entry) => ({ plan: { ...entry.plan, ...planChange } }));
}

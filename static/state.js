// The page's store (one state, one render) and the few live handles that are not state: the terminal view, the
// event stream being read, and the generation counter that stops a stale read loop.

import { render } from './render.js';
import { createStore, INITIAL_STATE } from './store.js';

export const store = createStore(INITIAL_STATE, render);

export const TOKEN_KEY = 'term-mcp-auth';
export const SESSION_KEY = 'term-mcp-session';
export const LEDGER_KEY = 'term-mcp-ledger';
export const NARROW = window.matchMedia('(max-width: 860px)');

export const $ = (id) => document.getElementById(id);
export const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const pad = (number) => String(number).padStart(2, '0');

/** Handles, not state: nothing renders from them. */
export const live = {
  /** The output terminal (terminal-view.js), set once at start. */
  terminal: null,
  /** The AbortController of the event stream being read. */
  stream: null,
  /** Bumped whenever the followed command or the session changes; a stale read loop stops when it sees it. */
  generation: 0,
};

export function entryOf(planId) {
  return store.state.entries.find((entry) => entry.plan.id === planId);
}

/** Stops reading the command's output and the session's events (a new session, a lock, an ended session). */
export function stopFollowing() {
  live.generation += 1;
  live.stream?.abort();
  live.stream = null;
  store.update({ active: null });
}

// What the page tells a person: the banner (a state with a way out), the toast (a passing note), and the mapping
// from an error's code to which of them, and what to do about it.

import { RequestFailed, setToken } from './api.js';
import { $, TOKEN_KEY, stopFollowing, store } from './state.js';
import { saysSessionEnded, sentenceFor } from './words.js';

let toastTimer;
export function toast(message) {
  const node = $('toast');
  node.textContent = message;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    node.hidden = true;
  }, 4000);
}

/** `action`: 'reconnect', 'new-session', or none (only Dismiss). */
export function showBanner(message, action = '') {
  store.update({ banner: { message, action } });
}

export function clearBanner() {
  store.update({ banner: null });
}

export function lockOut(message = '') {
  stopFollowing();
  sessionStorage.removeItem(TOKEN_KEY);
  setToken('');
  store.update({ view: 'locked', gateError: message, banner: null, connection: { label: 'Locked', kind: 'locked' } });
  $('token').focus();
}

export function sessionEnded() {
  stopFollowing();
  store.update({
    connection: { label: 'Session ended', kind: 'ended' },
    banner: { message: sentenceFor(new RequestFailed('session_not_found')), action: 'new-session' },
  });
}

/** The server closed the session as it shut down, and no longer answers: a stop, not an ended session. */
export function serverStopped() {
  stopFollowing();
  store.update({
    connection: { label: 'Server stopped', kind: 'offline' },
    banner: { message: sentenceFor(new RequestFailed('server_stopped')), action: 'reconnect' },
  });
}

/** Shows what went wrong, with the way out for the states a person must act on. */
export function report(error) {
  if (error instanceof RequestFailed && error.code === 'unreachable') {
    store.update({
      connection: { label: 'Server not answering', kind: 'offline' },
      banner: { message: sentenceFor(error), action: 'reconnect' },
    });
  } else if (error instanceof RequestFailed && saysSessionEnded(error)) {
    sessionEnded();
  } else if (error instanceof RequestFailed && error.code === 'unauthorized') {
    lockOut(sentenceFor(error));
  } else {
    showBanner(sentenceFor(error));
  }
}

export async function guarded(action) {
  try {
    await action();
  } catch (error) {
    report(error);
  }
}

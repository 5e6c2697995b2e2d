// Connecting: the token gate, `GET ui/config` and `GET mcp/info`, the guided scenarios, and Reconnect.

import { api, baseUrl, RequestFailed, setProtocolVersion, setToken } from './api.js';
import { clearBanner } from './notices.js';
import { setReceiptMode } from './receipt-panel.js';
import { openSession } from './session.js';
import { $, NARROW, TOKEN_KEY, live, stopFollowing, store } from './state.js';
import { sentenceFor } from './words.js';

function showGate(message = '') {
  store.update({ view: 'locked', gateError: message, connection: { label: 'Locked', kind: 'locked' } });
}

export async function connect(token) {
  setToken(token);
  $('connect').disabled = true;
  let config;
  try {
    config = await api('ui/config');
  } catch (error) {
    if (error instanceof RequestFailed && error.code === 'unauthorized') {
      sessionStorage.removeItem(TOKEN_KEY);
      showGate(sentenceFor(error));
    } else if (error instanceof RequestFailed && error.code === 'unreachable') {
      showGate(`${sentenceFor(error)} (${baseUrl().href})`);
    } else showGate(sentenceFor(error));
    return;
  } finally {
    $('connect').disabled = false;
  }
  sessionStorage.setItem(TOKEN_KEY, token);
  setProtocolVersion(config.protocol_version);
  const info = await api('mcp/info').catch(() => null);
  setReceiptMode(config.mode);
  store.update({ config, info, view: 'console', gateError: '', connection: { label: 'Connected', kind: 'ready' } });
  void loadScenarios();
  await openSession();
  live.terminal?.refit();
  if (!NARROW.matches) $('command').focus();
}

export async function reconnect() {
  clearBanner();
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) {
    showGate();
    return;
  }
  stopFollowing();
  await connect(token);
}

async function loadScenarios() {
  let scenarios;
  try {
    ({ scenarios } = await api('demo/scenarios'));
  } catch {
    scenarios = [];
  }
  store.update({ scenarios: Array.isArray(scenarios) ? scenarios : [] });
}

/** A scenario's command goes into the command box; the note says so next to it (a toast could cover the receipt). */
export function useScenario(id) {
  const scenario = store.state.scenarios.find((candidate) => candidate.id === id);
  if (!scenario) return;
  $('command').value = scenario.command;
  $('command').focus();
  $('composer-note').textContent =
    `“${scenario.command}” is in the command box. Press Plan to see what the policy says.`;
}

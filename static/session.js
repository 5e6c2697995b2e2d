// Sessions: one per tab, opened over MCP by the tab's first plan (`terminal_plan` without `session_id`) or first
// advisor question, kept across reloads (its ledger in sessionStorage, its output and receipts read back from the
// server), closed by New session and Lock; and the session's event stream (`GET ui/events`), for the news the tools
// cannot push.

import { api, callTool, followEvents, RequestFailed } from './api.js';
import { clearBanner, lockOut, report, serverStopped, sessionEnded, toast } from './notices.js';
import { clearReceipt, showReceipt } from './receipt-panel.js';
import { follow, readAll, receiptOf, setLiveStatus, settle, summaryOf } from './run.js';
import { $, LEDGER_KEY, NARROW, SESSION_KEY, entryOf, live, pad, pause, stopFollowing, store } from './state.js';
import { withEntry, withPlan } from './store.js';
import { saysSessionEnded } from './words.js';

/** Longer than a stopping server takes to close its idle connections (term-mcp http reaps them every 50 ms). */
const SHUTDOWN_SETTLE_MS = 500;

/** Keeps the ledger of this tab's session (never the output: that is read back from the server). */
store.subscribe((state, previous) => {
  if (state.entries === previous.entries && state.sessionId === previous.sessionId) return;
  if (state.sessionId === '') return;
  const entries = state.entries.map(({ plan, number, commandId, hasReceipt, collapsed }) => {
    const kept = { ...plan };
    delete kept.next_step;
    return { plan: kept, number, commandId, hasReceipt, collapsed: collapsed === true };
  });
  sessionStorage.setItem(LEDGER_KEY, JSON.stringify({ sessionId: state.sessionId, entries }));
});

function restoredEntries(sessionId) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(LEDGER_KEY) ?? 'null');
    if (saved?.sessionId !== sessionId || !Array.isArray(saved.entries)) return [];
    return saved.entries.map((entry) => ({ ...entry, busy: false, output: null }));
  } catch {
    return [];
  }
}

function resetRunView() {
  store.update({ strip: { status: 'idle', detail: '' } });
  clearReceipt();
}

/** The tab had no session and the server just opened one for it (its first plan or advisor question): keep it. */
export function adoptSession(sessionId) {
  if (typeof sessionId !== 'string' || sessionId === '' || store.state.sessionId === sessionId) return;
  sessionStorage.setItem(SESSION_KEY, sessionId);
  store.update({ sessionId });
  startStream();
}

/** No session until the next plan opens one. */
function forgetSession() {
  sessionStorage.removeItem(SESSION_KEY);
  store.update({ sessionId: '', entries: [] });
}

async function closeSession(sessionId) {
  if (!sessionId) return;
  try {
    await callTool('terminal_session_close', { session_id: sessionId });
  } catch (error) {
    // Already gone is what we wanted; anything else (server down) is reported, but the tab moves on.
    if (!(error instanceof RequestFailed && saysSessionEnded(error))) throw error;
  }
}

/**
 * Reuses the session this tab kept, if the server still has it; else the tab has none until its first plan opens
 * one. Never one per reload.
 */
export async function openSession() {
  stopFollowing();
  resetRunView();
  const kept = sessionStorage.getItem(SESSION_KEY);
  let overview;
  if (kept) {
    const { sessions } = await callTool('terminal_sessions', {});
    overview = sessions.find((session) => session.session_id === kept);
  }
  if (!overview) {
    forgetSession();
    store.update({ connection: { label: 'Connected', kind: 'ready' } });
    return;
  }
  store.update({ sessionId: kept, entries: restoredEntries(kept), connection: { label: 'Connected', kind: 'ready' } });
  startStream();
  await reconcile(overview);
}

export async function newSession() {
  const previous = store.state.sessionId;
  stopFollowing();
  clearBanner();
  await closeSession(previous);
  forgetSession();
  resetRunView();
  live.terminal.clear();
  $('chat-log').replaceChildren();
  store.update({ connection: { label: 'Connected', kind: 'ready' } });
  toast('New session: your next plan opens it. The previous one was closed.');
}

export async function lock() {
  const previous = store.state.sessionId;
  stopFollowing();
  try {
    await closeSession(previous);
  } finally {
    sessionStorage.removeItem(SESSION_KEY);
    sessionStorage.removeItem(LEDGER_KEY);
    store.update({ sessionId: '', entries: [] });
    $('token').value = '';
    $('operator-token').value = '';
    $('operator-approvals').replaceChildren();
    lockOut();
  }
}

/**
 * After a reload: the terminal and the cards get back the output of every command that ran (read from the server),
 * the receipt panel the last receipt, and a command still running is followed again.
 */
async function reconcile(overview) {
  const running = overview.running_command;
  let last = null;
  for (const entry of store.state.entries) {
    const planId = entry.plan.id;
    if (running && running.plan_id === planId) {
      store.update((state) => ({
        entries: withEntry(state.entries, planId, (current) => ({
          plan: { ...current.plan, status: running.status },
          commandId: running.command_id,
        })),
      }));
      follow(planId, running.command_id, `$ ${entry.plan.command}  (reattached)`);
      if (NARROW.matches) $('strip').scrollIntoView({ block: 'start' });
      return;
    }
    if (entry.commandId === '') continue;
    const receipt = await receiptOf(planId);
    const output = await readAll(entry.commandId).catch(() =>
      receipt ? `${receipt.stdout ?? ''}${receipt.stderr ?? ''}` : '',
    );
    store.update((state) => ({ entries: withEntry(state.entries, planId, () => ({ output })) }));
    live.terminal.note(`$ ${entry.plan.command}`);
    live.terminal.write(output);
    if (receipt) {
      settle(planId, receipt, false);
      live.terminal.endOfOutput();
      live.terminal.note(`— ${summaryOf(receipt)}`);
      last = { planId, receipt };
    }
  }
  if (last) {
    const entry = entryOf(last.planId);
    store.update({
      strip: { status: last.receipt.status, detail: `Plan ${pad(entry.number)}: ${summaryOf(last.receipt)}` },
    });
    await showReceipt(last.receipt, `plan ${pad(entry.number)} of this session`);
  }
}

function startStream() {
  const controller = new AbortController();
  live.stream = controller;
  let closedByServer = false;
  followEvents(store.state.sessionId, controller.signal, (type, event) => {
    if (type === 'session_closed') closedByServer = true;
    onEvent(type, event);
  }).then(
    () => {
      if (live.stream === controller) void probeAfterStreamEnd(closedByServer);
    },
    (error) => {
      if (controller.signal.aborted || live.stream !== controller) return;
      if (closedByServer && error instanceof RequestFailed && error.code === 'unreachable') serverStopped();
      else report(error);
    },
  );
}

/**
 * The stream ended. After a `session_closed`, a server that no longer answers was stopped (a graceful shutdown
 * closes every session first); one that answers without the session ended it. Without one, the server went away
 * or restarted.
 */
async function probeAfterStreamEnd(closedByServer) {
  try {
    await api('ui/config');
    const { sessions } = await callTool('terminal_sessions', {});
    if (sessions.some((session) => session.session_id === store.state.sessionId)) {
      startStream();
      return;
    }
    // A stopping server may still answer on a connection the browser kept open, for the few milliseconds until it
    // closes idle ones: ask once more on a fresh one before calling it an ended session.
    if (closedByServer) {
      await pause(SHUTDOWN_SETTLE_MS);
      await api('ui/config');
    }
    sessionEnded();
  } catch (error) {
    if (closedByServer && error instanceof RequestFailed && error.code === 'unreachable') serverStopped();
    else report(error);
  }
}

function onEvent(type, event) {
  if (event.sessionId !== undefined && event.sessionId !== store.state.sessionId) return;
  switch (type) {
    case 'approved': {
      const entry = entryOf(event.planId);
      if (entry && entry.plan.status === 'planned') {
        store.update((state) => ({
          entries: withPlan(state.entries, event.planId, { status: 'approved', approved_at: event.at }),
        }));
        if (store.state.config.approval_channel === 'operator')
          toast(`An operator approved plan ${pad(entry.number)}.`);
      }
      return;
    }
    case 'command_paused':
      if (store.state.active?.commandId === event.commandId) setLiveStatus('paused');
      return;
    case 'command_resumed':
      if (store.state.active?.commandId === event.commandId) setLiveStatus('running');
      return;
    default:
      // plan, policy_decision, command_started, output, command_finished: the tools already told us;
      // session_closed: the stream ends next, and what follows its end says why (probeAfterStreamEnd).
      return;
  }
}

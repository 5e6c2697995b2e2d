// term-mcp mission control. Plain browser modules, no build step, no external URLs, no inline handlers (CSP).
// Plans, approvals, execution, output and receipts go through MCP (`POST mcp`, 2026-07-28 stateless requests);
// the session's event stream (`GET stream`) only brings news the tools cannot push (an operator's approval, a
// pause, the session's end). Output is read with terminal_read, so nothing is lost before the page listens.

import { api, callTool, followEvents, RequestFailed, setToken, baseUrl } from './api.js';
import { actionsOf, isLive, renderCard } from './ledger.js';
import { clearReceipt, copyReceiptJson, exportRedacted, importReceipt, setReceiptMode, showReceipt } from './receipt-panel.js';
import { createTerminalView } from './terminal-view.js';
import { formatBytes, formatDuration, formatSeconds, sentenceFor, saysSessionEnded, statusWord } from './words.js';

const TOKEN_KEY = 'term-mcp-auth';
const SESSION_KEY = 'term-mcp-session';
const LEDGER_KEY = 'term-mcp-ledger';
/** terminal_read long-poll: the server answers as soon as there is output, or after this many seconds. */
const READ_WAIT_SECONDS = 10;
/** At most ~4 reads a second (RATE_LIMIT_PER_MINUTE defaults to 600), each up to 64 KiB. */
const MIN_READ_INTERVAL_MS = 250;
const RATE_LIMITED_BACKOFF_MS = 2000;
const NARROW = window.matchMedia('(max-width: 860px)');

const $ = (id) => document.getElementById(id);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const state = {
  config: null,
  info: null,
  sessionId: '',
  /** The session's plans, oldest first: `{plan, number, commandId, hasReceipt, busy}`. */
  entries: [],
  /** The command being followed: `{entry, commandId}`. */
  active: null,
  /** Bumped whenever the followed command or the session changes; a stale read loop stops when it sees it. */
  generation: 0,
  stream: null,
  terminal: null,
  operatorToken: '',
};

// ---------------------------------------------------------------------------------------------------------------
// Notices

function showBanner(message, action) {
  $('banner-text').textContent = message;
  const button = $('banner-action');
  button.hidden = action === undefined;
  if (action) {
    button.textContent = action.label;
    button.onclick = () => void guarded(action.run);
  }
  $('banner').hidden = false;
}

function clearBanner() {
  $('banner').hidden = true;
  $('banner-text').textContent = '';
}

let toastTimer;
function toast(message) {
  const node = $('toast');
  node.textContent = message;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    node.hidden = true;
  }, 4000);
}

function setConnection(label, kind) {
  const chip = $('connection');
  chip.textContent = label;
  chip.dataset.state = kind;
}

/** Shows what went wrong, with the way out for the two states a person must act on. */
function report(error) {
  if (error instanceof RequestFailed && error.code === 'unreachable') {
    setConnection('Server not answering', 'offline');
    showBanner(sentenceFor(error), { label: 'Reconnect', run: reconnect });
  } else if (error instanceof RequestFailed && saysSessionEnded(error)) {
    sessionEnded();
  } else if (error instanceof RequestFailed && error.code === 'unauthorized') {
    lockOut(sentenceFor(error));
  } else {
    showBanner(sentenceFor(error));
  }
}

async function guarded(action) {
  try {
    await action();
  } catch (error) {
    report(error);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Connecting

function showGate(message) {
  $('console').hidden = true;
  $('jump').hidden = true;
  $('session-tools').hidden = true;
  for (const id of ['mode-chip', 'approval-chip', 'model-chip']) $(id).hidden = true;
  $('gate').hidden = false;
  $('gate-error').textContent = message ?? '';
  $('gate-error').hidden = !message;
  setConnection('Locked', 'locked');
}

function lockOut(message) {
  stopFollowing();
  sessionStorage.removeItem(TOKEN_KEY);
  setToken('');
  clearBanner();
  showGate(message);
  $('token').focus();
}

async function connect(token) {
  setToken(token);
  $('connect').disabled = true;
  try {
    state.config = await api('ui/config');
  } catch (error) {
    $('connect').disabled = false;
    if (error instanceof RequestFailed && error.code === 'unauthorized') {
      sessionStorage.removeItem(TOKEN_KEY);
      showGate(sentenceFor(error));
    } else if (error instanceof RequestFailed && error.code === 'unreachable') {
      showGate(`${sentenceFor(error)} (${baseUrl().href})`);
    } else showGate(sentenceFor(error));
    return;
  }
  $('connect').disabled = false;
  sessionStorage.setItem(TOKEN_KEY, token);
  state.info = await api('mcp/info').catch(() => null);
  setReceiptMode(state.config.mode);
  showConfig();
  $('gate').hidden = true;
  $('console').hidden = false;
  $('jump').hidden = false;
  $('session-tools').hidden = false;
  setConnection('Connected', 'ready');
  void loadScenarios();
  await openSession();
  state.terminal?.refit();
  if (!NARROW.matches) $('command').focus();
}

async function reconnect() {
  clearBanner();
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) {
    showGate();
    return;
  }
  stopFollowing();
  await connect(token);
}

function chip(id, text) {
  $(id).textContent = text;
  $(id).hidden = false;
}

function showConfig() {
  const { config, info } = state;
  chip('mode-chip', `Mode ${String(config.mode)}`);
  chip('approval-chip', config.approval_channel === 'operator' ? 'Approval by operator' : 'Approval by you');
  chip('model-chip', config.chat.available ? `Model ${config.chat.model}` : 'Model unavailable');
  $('chat-panel').hidden = !config.chat.available;
  $('operator-panel').hidden = config.approval_channel !== 'operator';
  const facts = $('workspace-facts');
  facts.replaceChildren();
  const add = (term, value) => {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    facts.append(dt, dd);
  };
  if (typeof info?.workspace === 'string') add('Workspace', info.workspace);
  if (typeof info?.network_allowed === 'boolean') add('Network', info.network_allowed ? 'Allowed by policy' : 'Denied by default');
  add('Limits', `${formatSeconds(config.limits.command_timeout_seconds)} per command · ${formatBytes(config.limits.max_output_bytes)} output`);
  add('Session', `ends after ${formatSeconds(config.limits.session_timeout_seconds)} idle`);
  if (info?.confinement) add('Sandbox', describeConfinement(info.confinement, info.workspace));
}

/** The sandbox in words, from the summary plans and receipts carry. */
function describeConfinement(confinement, workspace) {
  if (confinement.sandbox === 'off') return 'Off (TERM_MCP_SANDBOX=off): only the policy guards commands';
  if (confinement.sandbox !== 'bubblewrap') return String(confinement.sandbox);
  const writable = Array.isArray(confinement.writable_roots) && confinement.writable_roots.includes(workspace);
  const domains = Array.isArray(confinement.allowed_domains) ? confinement.allowed_domains.length : 0;
  const network =
    confinement.network === 'filtered' ? `network through the proxy (${domains} allowed domain${domains === 1 ? '' : 's'})`
    : confinement.network === 'on' ? 'network on (unfiltered)'
    : 'no network';
  return `bubblewrap · workspace ${writable ? 'writable' : 'read-only'} · ${network}`;
}

async function loadScenarios() {
  let scenarios;
  try {
    ({ scenarios } = await api('demo/scenarios'));
  } catch {
    scenarios = [];
  }
  const list = $('scenario-list');
  list.replaceChildren(
    ...scenarios.map((scenario) => {
      const item = document.createElement('button');
      item.type = 'button';
      item.className = 'scenario';
      item.dataset.scenario = scenario.id;
      const title = document.createElement('strong');
      title.textContent = scenario.title;
      const command = document.createElement('code');
      command.textContent = scenario.command;
      const description = document.createElement('span');
      description.textContent = scenario.description;
      item.append(title, command, description);
      item.addEventListener('click', () => {
        $('command').value = scenario.command;
        $('command').focus();
        toast(`“${scenario.command}” is in the command box. Press Plan to see what the policy says.`);
      });
      return item;
    }),
  );
  $('scenarios').hidden = scenarios.length === 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Sessions: one per tab, kept across reloads, closed by New session and Lock

function showSessionId() {
  $('session-id').textContent = state.sessionId.slice(0, 8);
  $('session-id').title = state.sessionId;
}

async function createSession() {
  const created = await api('sessions', { method: 'POST' });
  state.sessionId = created.session_id;
  sessionStorage.setItem(SESSION_KEY, state.sessionId);
  state.entries = [];
  saveLedger();
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

/** Reuses the session this tab kept, if the server still has it; else opens one. Never one per reload. */
async function openSession() {
  stopFollowing();
  resetRunView();
  const kept = sessionStorage.getItem(SESSION_KEY);
  let overview;
  if (kept) {
    const { sessions } = await callTool('terminal_sessions', {});
    overview = sessions.find((session) => session.session_id === kept);
  }
  if (overview) {
    state.sessionId = kept;
    restoreLedger();
  } else {
    await createSession();
  }
  showSessionId();
  renderLedger();
  startStream();
  if (overview) await reconcile(overview);
}

async function newSession() {
  const previous = state.sessionId;
  stopFollowing();
  clearBanner();
  await closeSession(previous);
  state.sessionId = '';
  sessionStorage.removeItem(SESSION_KEY);
  await createSession();
  showSessionId();
  resetRunView();
  renderLedger();
  $('chat-log').replaceChildren();
  startStream();
  setConnection('Connected', 'ready');
  toast('New session started. The previous one was closed.');
}

async function lock() {
  const previous = state.sessionId;
  stopFollowing();
  try {
    await closeSession(previous);
  } finally {
    sessionStorage.removeItem(SESSION_KEY);
    sessionStorage.removeItem(LEDGER_KEY);
    state.sessionId = '';
    state.entries = [];
    state.operatorToken = '';
    $('token').value = '';
    $('operator-token').value = '';
    $('operator-approvals').replaceChildren();
    lockOut();
  }
}

function sessionEnded() {
  stopFollowing();
  setConnection('Session ended', 'offline');
  $('plan-button').disabled = true;
  showBanner(sentenceFor(new RequestFailed('session_not_found')), { label: 'Start a new session', run: newSession });
}

function stopFollowing() {
  state.generation += 1;
  state.active = null;
  state.stream?.abort();
  state.stream = null;
  $('plan-button').disabled = false;
}

function startStream() {
  const controller = new AbortController();
  state.stream = controller;
  const sessionId = state.sessionId;
  followEvents(sessionId, controller.signal, onEvent).then(
    () => {
      if (state.stream === controller) void probeAfterStreamEnd();
    },
    (error) => {
      if (controller.signal.aborted || state.stream !== controller) return;
      report(error);
    },
  );
}

/** The stream ended without a `session_closed`: the server went away, or restarted. */
async function probeAfterStreamEnd() {
  try {
    await api('ui/config');
    const { sessions } = await callTool('terminal_sessions', {});
    if (sessions.some((session) => session.session_id === state.sessionId)) startStream();
    else sessionEnded();
  } catch (error) {
    report(error);
  }
}

function onEvent(type, event) {
  if (event.sessionId !== undefined && event.sessionId !== state.sessionId) return;
  switch (type) {
    case 'approved': {
      const entry = entryOf(event.planId);
      if (entry && entry.plan.status === 'planned') {
        entry.plan.status = 'approved';
        entry.plan.approved_at = event.at;
        updateEntry(entry);
        if (state.config.approval_channel === 'operator') toast(`An operator approved plan ${pad(entry.number)}.`);
      }
      return;
    }
    case 'command_paused':
      if (state.active?.commandId === event.commandId) setLiveStatus('paused');
      return;
    case 'command_resumed':
      if (state.active?.commandId === event.commandId) setLiveStatus('running');
      return;
    case 'session_closed':
      // Also what a server that is shutting down says; if it is gone, say that instead.
      void api('ui/config').then(sessionEnded, report);
      return;
    default:
      // plan, policy_decision, command_started, output, command_finished: the tools already told us.
      return;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The ledger

const pad = (number) => String(number).padStart(2, '0');

function entryOf(planId) {
  return state.entries.find((entry) => entry.plan.id === planId);
}

function saveLedger() {
  const entries = state.entries.map(({ plan, number, commandId, hasReceipt }) => {
    const kept = { ...plan };
    delete kept.next_step;
    return { plan: kept, number, commandId, hasReceipt };
  });
  sessionStorage.setItem(LEDGER_KEY, JSON.stringify({ sessionId: state.sessionId, entries }));
}

function restoreLedger() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(LEDGER_KEY) ?? 'null');
    state.entries = saved?.sessionId === state.sessionId && Array.isArray(saved.entries) ? saved.entries : [];
  } catch {
    state.entries = [];
  }
}

/** After a reload: follows the command still running, and settles the cards whose command ended meanwhile. */
async function reconcile(overview) {
  const running = overview.running_command;
  for (const entry of state.entries) {
    if (running && running.plan_id === entry.plan.id) {
      entry.plan.status = running.status;
      entry.commandId = running.command_id;
      updateEntry(entry);
      follow(entry, running.command_id, `$ ${entry.plan.command}  (reattached)`);
      if (NARROW.matches) $('strip').scrollIntoView({ block: 'start' });
    } else if (isLive(entry.plan.status)) {
      const receipt = await receiptOf(entry);
      if (receipt) settle(entry, receipt, false);
    }
  }
}

function renderLedger() {
  const ledger = $('ledger');
  const cards = [...state.entries].reverse().map((entry) => renderCard(entry, state.config.approval_channel));
  ledger.replaceChildren(...cards);
  $('ledger-empty').hidden = state.entries.length > 0;
  $('ledger-count').textContent = state.entries.length > 0 ? String(state.entries.length) : '';
}

function cardOf(entry) {
  return $('ledger').querySelector(`[data-plan-id="${CSS.escape(entry.plan.id)}"]`);
}

function updateEntry(entry) {
  const card = cardOf(entry);
  if (card) renderCard(entry, state.config.approval_channel, card);
  saveLedger();
}

function addEntry(plan) {
  const number = state.entries.length === 0 ? 1 : state.entries[state.entries.length - 1].number + 1;
  const entry = { plan, number, commandId: '', hasReceipt: false };
  state.entries.push(entry);
  saveLedger();
  renderLedger();
  const card = cardOf(entry);
  card.classList.add('fresh');
  card.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  return entry;
}

async function planCommand() {
  const command = $('command').value;
  if (command.trim() === '') {
    toast('Type a command first.');
    $('command').focus();
    return;
  }
  const args = { session_id: state.sessionId, command };
  const cwd = $('cwd').value.trim();
  if (cwd !== '') args.cwd = cwd;
  $('plan-button').disabled = true;
  try {
    addEntry(await callTool('terminal_plan', args));
  } finally {
    $('plan-button').disabled = false;
  }
}

async function onCardAction(action, entry) {
  const { plan } = entry;
  switch (action) {
    case 'copy':
      try {
        await navigator.clipboard.writeText(plan.command);
        toast('Command copied.');
      } catch {
        toast('The browser did not allow copying; select the command on the card instead.');
      }
      return;
    case 'approve': {
      const approved = await callTool('terminal_approve', { session_id: state.sessionId, plan_id: plan.id, approval_id: plan.approval_id });
      entry.plan = { ...plan, ...approved };
      updateEntry(entry);
      return;
    }
    case 'run':
      await runEntry(entry);
      return;
    case 'retry':
      addEntry(await callTool('terminal_retry', { session_id: state.sessionId, plan_id: plan.id }));
      return;
    case 'receipt': {
      const receipt = await receiptOf(entry);
      if (receipt) {
        await showReceipt(receipt, `plan ${pad(entry.number)} of this session`);
        if (NARROW.matches) $('receipt-panel').scrollIntoView({ behavior: 'smooth', block: 'start' });
      }
      return;
    }
    default:
      return;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Running, the execution strip and the terminal

const STRIP = {
  idle: ['Idle', 'Nothing is running.'],
  running: ['Running', ''],
  paused: ['Paused', 'The process is stopped; Resume continues it, Cancel ends it.'],
};

function setStrip(status, detail) {
  const [label, fallback] = STRIP[status] ?? [statusWord(status), ''];
  $('strip').dataset.state = status;
  $('exec-state').textContent = label;
  $('exec-detail').textContent = detail ?? fallback;
  $('pause').disabled = status !== 'running';
  $('resume').disabled = status !== 'paused';
  $('cancel').disabled = !isLive(status);
}

function setLiveStatus(status) {
  const active = state.active;
  if (!active) return;
  active.entry.plan.status = status;
  updateEntry(active.entry);
  setStrip(status, status === 'running' ? `Plan ${pad(active.entry.number)}: ${active.entry.plan.command}` : undefined);
}

function resetRunView() {
  setStrip('idle');
  clearReceipt();
}

async function runEntry(entry) {
  if (state.active) {
    showBanner(sentenceFor(new RequestFailed('process_limit_reached')));
    return;
  }
  if (!actionsOf(entry.plan, state.config.approval_channel).run) return;
  entry.busy = true;
  updateEntry(entry);
  let started;
  try {
    started = await callTool('terminal_execute', { session_id: state.sessionId, plan_id: entry.plan.id, wait_seconds: 0 });
  } finally {
    entry.busy = false;
    updateEntry(entry);
  }
  if (NARROW.matches) $('strip').scrollIntoView({ behavior: 'smooth', block: 'start' });
  entry.commandId = started.command_id;
  if (typeof started.signature === 'string') {
    // Ended before the answer: the answer is the receipt itself.
    state.terminal.note(`$ ${entry.plan.command}`);
    const read = await readAll(entry.commandId);
    state.terminal.write(read);
    settle(entry, started, true);
    return;
  }
  entry.plan.status = 'running';
  updateEntry(entry);
  follow(entry, started.command_id, `$ ${entry.plan.command}`);
}

async function readAll(commandId) {
  const read = await callTool('terminal_read', { session_id: state.sessionId, command_id: commandId });
  return read.stdout.text + read.stderr.text;
}

/** Streams a command's output into the terminal with terminal_read long-polls, until it ends. */
function follow(entry, commandId, heading) {
  const generation = ++state.generation;
  state.active = { entry, commandId };
  state.terminal.note(heading);
  setStrip(entry.plan.status, `Plan ${pad(entry.number)}: ${entry.plan.command}`);
  const loop = async () => {
    let stdoutOffset = 0;
    let stderrOffset = 0;
    for (;;) {
      let read;
      try {
        read = await callTool('terminal_read', {
          session_id: state.sessionId,
          command_id: commandId,
          stdout_offset: stdoutOffset,
          stderr_offset: stderrOffset,
          wait_seconds: READ_WAIT_SECONDS,
        });
      } catch (error) {
        // Over the per-minute request budget: wait, then carry on from the same offsets.
        if (!(error instanceof RequestFailed && error.code === 'rate_limited')) throw error;
        await pause(RATE_LIMITED_BACKOFF_MS);
        continue;
      }
      if (generation !== state.generation) return;
      state.terminal.write(read.stdout.text);
      state.terminal.write(read.stderr.text);
      stdoutOffset = read.stdout.next_offset;
      stderrOffset = read.stderr.next_offset;
      const drained = (read.stdout.complete && read.stderr.complete) || (read.stdout.text === '' && read.stderr.text === '');
      if (read.finished && drained) break;
      if (!read.finished && isLive(read.status) && read.status !== entry.plan.status) setLiveStatus(read.status);
      // A chatty command would otherwise cost one request per chunk; batch its output instead.
      if (!read.finished) await pause(MIN_READ_INTERVAL_MS);
    }
    const receipt = await receiptOf(entry);
    if (generation !== state.generation) return;
    state.active = null;
    if (receipt) settle(entry, receipt, true);
  };
  loop().catch((error) => {
    if (generation !== state.generation) return;
    state.active = null;
    report(error);
  });
}

/** The receipt of a finished plan; it is recorded as the command ends, so it may take a moment to appear. */
async function receiptOf(entry) {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const found = await callTool('terminal_receipt', { session_id: state.sessionId, plan_id: entry.plan.id });
    if (found && typeof found.signature === 'string') return found;
    await pause(250);
  }
  return null;
}

function settle(entry, receipt, show) {
  entry.plan.status = receipt.status;
  entry.hasReceipt = true;
  updateEntry(entry);
  const end = receipt.signal !== null ? `signal ${receipt.signal}` : `exit ${receipt.exit_code}`;
  const summary = `${statusWord(receipt.status)} · ${end} · ${formatDuration(receipt.duration_ms)}${receipt.output_truncated ? ' · output truncated' : ''}`;
  if (show) {
    state.terminal.endOfOutput();
    state.terminal.note(`— ${summary}`);
    setStrip(receipt.status, `Plan ${pad(entry.number)}: ${summary}`);
    void showReceipt(receipt, `plan ${pad(entry.number)} of this session`);
  }
}

async function control(tool) {
  const active = state.active;
  if (!active) return;
  const answer = await callTool(tool, { session_id: state.sessionId, command_id: active.commandId });
  if (tool === 'terminal_pause' && answer.paused) setLiveStatus('paused');
  if (tool === 'terminal_resume' && answer.resumed) setLiveStatus('running');
  if (tool === 'terminal_cancel' && answer.cancelled) $('exec-detail').textContent = 'Cancelling…';
}

// ---------------------------------------------------------------------------------------------------------------
// Operator approvals (TERM_MCP_APPROVAL=operator): a separate token, a separate route, never MCP

async function operatorApi(path, method) {
  let response;
  try {
    response = await fetch(new URL(path, baseUrl()), { method, headers: { Authorization: `Bearer ${state.operatorToken}` }, cache: 'no-store' });
  } catch {
    throw new RequestFailed('unreachable');
  }
  const json = await response.json().catch(() => null);
  if (response.status === 401) throw new RequestFailed('operator_unauthorized');
  if (!response.ok) throw new RequestFailed(typeof json?.error === 'string' ? json.error : 'http_error');
  return json;
}

function approvalItem(approval) {
  const item = document.createElement('li');
  const command = document.createElement('code');
  command.textContent = approval.command;
  const detail = document.createElement('small');
  detail.textContent = `${String(approval.risk).toUpperCase()} RISK · ${approval.reasons.join('; ')} · in ${approval.cwd}`;
  const approve = document.createElement('button');
  approve.type = 'button';
  approve.className = 'warn small';
  approve.textContent = 'Approve as operator';
  approve.addEventListener('click', () => void operatorGuarded(() => approveAsOperator(approval.approval_id)));
  item.append(command, detail, approve);
  return item;
}

async function operatorGuarded(action) {
  try {
    await action();
  } catch (error) {
    if (error instanceof RequestFailed && error.code === 'operator_unauthorized') showBanner('The server refused the operator token.');
    else report(error);
  }
}

async function loadApprovals() {
  state.operatorToken = $('operator-token').value.trim();
  const { approvals } = await operatorApi('operator/approvals', 'GET');
  const items = approvals.map(approvalItem);
  if (items.length === 0) {
    const none = document.createElement('li');
    none.className = 'empty';
    none.textContent = 'No approval is pending.';
    items.push(none);
  }
  $('operator-approvals').replaceChildren(...items);
}

async function approveAsOperator(approvalId) {
  const approved = await operatorApi(`operator/approvals/${encodeURIComponent(approvalId)}`, 'POST');
  const entry = entryOf(approved.plan_id);
  if (entry && entry.plan.status === 'planned') {
    entry.plan.status = 'approved';
    updateEntry(entry);
  }
  await loadApprovals();
}

// ---------------------------------------------------------------------------------------------------------------
// Planning advisor (optional)

function chatEntry(role, text) {
  const entry = document.createElement('div');
  entry.className = `chat-entry ${role}`;
  const body = document.createElement('p');
  body.textContent = text;
  entry.append(body);
  return entry;
}

function suggestionCard(suggestion) {
  const card = document.createElement('div');
  card.className = 'suggestion';
  const command = document.createElement('code');
  command.textContent = suggestion.command;
  const verdict = document.createElement('span');
  verdict.className = `badge risk-${suggestion.verdict === 'deny' ? 'blocked' : suggestion.risk}`;
  verdict.textContent = suggestion.verdict === 'deny' ? 'BLOCKED' : `${String(suggestion.risk).toUpperCase()} RISK`;
  const use = document.createElement('button');
  use.type = 'button';
  use.className = 'secondary small';
  use.textContent = 'Plan it';
  use.addEventListener('click', () => {
    $('command').value = suggestion.command;
    void guarded(planCommand);
  });
  card.append(command, verdict, use);
  return card;
}

/** Brings a new chat entry into view: its beginning when it is taller than the log, else the log's end. */
function reveal(node) {
  const log = $('chat-log');
  log.scrollTop = node.offsetHeight > log.clientHeight ? node.offsetTop : log.scrollHeight;
  log.scrollIntoView({ block: 'nearest' });
}

async function askAdvisor() {
  const message = $('chat-message').value.trim();
  if (message === '') return;
  const log = $('chat-log');
  const asked = chatEntry('user', message);
  log.append(asked);
  $('chat-message').value = '';
  const waiting = chatEntry('pending', 'The advisor is thinking');
  waiting.setAttribute('role', 'status');
  log.append(waiting);
  log.setAttribute('aria-busy', 'true');
  $('chat-send').disabled = true;
  reveal(waiting);
  let answer;
  try {
    const reply = await api('chat', { method: 'POST', body: { message, session_id: state.sessionId } });
    answer = chatEntry('assistant', reply.message);
    for (const suggestion of reply.plans ?? []) answer.append(suggestionCard(suggestion));
  } catch (error) {
    const sentence = error instanceof RequestFailed && error.code === 'chat_unavailable' && typeof error.details.message === 'string'
      ? `The model did not answer (${error.details.message}). The terminal tools still work.`
      : sentenceFor(error);
    answer = chatEntry('error', sentence);
  } finally {
    log.removeAttribute('aria-busy');
    $('chat-send').disabled = false;
  }
  waiting.replaceWith(answer);
  reveal(answer);
}

// ---------------------------------------------------------------------------------------------------------------
// Wiring

function onSubmit(id, action) {
  $(id).addEventListener('submit', (event) => {
    event.preventDefault();
    void guarded(action);
  });
}

function onClick(id, action) {
  $(id).addEventListener('click', () => void guarded(action));
}

function isTyping(target) {
  if (!(target instanceof HTMLElement)) return false;
  if (target.classList.contains('xterm-helper-textarea')) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

onSubmit('auth-form', () => connect($('token').value.trim()));
onSubmit('plan-form', planCommand);
onSubmit('chat-form', askAdvisor);
$('operator-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void operatorGuarded(loadApprovals);
});
onClick('new-session', newSession);
onClick('lock', lock);
onClick('pause', () => control('terminal_pause'));
onClick('resume', () => control('terminal_resume'));
onClick('cancel', () => control('terminal_cancel'));
onClick('clear-output', async () => state.terminal.clear());
onClick('receipt-export', exportRedacted);
onClick('receipt-copy', copyReceiptJson);
$('banner-dismiss').addEventListener('click', clearBanner);
$('receipt-file').addEventListener('change', (event) => {
  const [file] = event.target.files;
  event.target.value = '';
  if (file) void guarded(() => importReceipt(file));
});
$('ledger').addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-action]') : null;
  const card = button?.closest('[data-plan-id]');
  const entry = card ? entryOf(card.dataset.planId) : undefined;
  if (button && entry) void guarded(() => onCardAction(button.dataset.action, entry));
});

document.addEventListener('keydown', (event) => {
  const inConsole = !$('console').hidden;
  if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
    if (event.target === $('chat-message')) {
      event.preventDefault();
      $('chat-form').requestSubmit();
    } else if (inConsole) {
      event.preventDefault();
      void guarded(planCommand);
    }
  } else if (event.key === '/' && inConsole && !isTyping(event.target) && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    $('command').focus();
  } else if (event.key === 'Escape') {
    clearBanner();
    $('toast').hidden = true;
    if (event.target === $('command')) $('command').value = '';
  }
});

state.terminal = await createTerminalView($('terminal'));
state.terminal.note('The output of the plans you run appears here, colours and all.');
const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved) {
  $('token').value = saved;
  await guarded(() => connect(saved));
}

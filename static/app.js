// term-mcp mission control. Plain browser JavaScript, no build step, no external URLs, no inline handlers (CSP).
// Commands are planned, approved and executed through MCP (`POST /mcp`, 2026-07-28 stateless requests); live output
// comes from the execution-event stream (`GET /stream`), read with fetch because EventSource cannot send a bearer header.

const PROTOCOL_VERSION = '2026-07-28';
const CLIENT_INFO = { name: 'term-mcp-mission-control', version: '1.0.0' };
const TOKEN_KEY = 'term-mcp-auth';

const $ = (id) => document.getElementById(id);

const state = {
  token: '',
  /** Held in memory only: the operator token never touches storage. */
  operatorToken: '',
  config: null,
  sessionId: '',
  plan: null,
  commandId: '',
  stream: null,
  rpcId: 0,
  /** Output and outcome per command id: events may arrive before terminal_execute answers. */
  outputs: new Map(),
  outcomes: new Map(),
};

class RequestFailed extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP helpers

function authHeaders() {
  return { Authorization: `Bearer ${state.token}` };
}

function friendlyHttpError(status, body) {
  if (status === 401) return new RequestFailed('Authentication failed. Check the bearer token printed by term-mcp http.', 'unauthorized');
  if (status === 429) return new RequestFailed('Too many requests: wait a moment and retry.', 'rate_limited');
  const message = body?.message ?? body?.error?.message ?? `Request failed with HTTP ${status}`;
  if (body?.error === 'unknown_session') return new RequestFailed('This session expired. Create a new session and build the plan again.', 'unknown_session');
  return new RequestFailed(message, typeof body?.error === 'string' ? body.error : 'http_error');
}

async function readJson(response) {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

async function api(path, { method = 'GET', body } = {}) {
  const headers = authHeaders();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  const json = await readJson(response);
  if (!response.ok) throw friendlyHttpError(response.status, json);
  return json;
}

/** One SSE frame (`event:` / `data:` lines; `:` comments ignored) as `{ event, data }`. */
function parseSseFrame(frame) {
  let event = 'message';
  const data = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return { event, data: data.join('\n') };
}

/** Calls `onFrame` for every frame of an SSE response body until it ends or `onFrame` returns true. */
async function readSse(response, onFrame) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer = (buffer + value).replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = parseSseFrame(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (onFrame(frame) === true) {
        await reader.cancel();
        return;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// MCP tools over Streamable HTTP (modern era: every request carries its own metadata)

async function readRpcReply(response, id) {
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes('text/event-stream')) return readJson(response);
  let reply = null;
  await readSse(response, (frame) => {
    const message = frame.data === '' ? null : JSON.parse(frame.data);
    if (message && message.id === id && ('result' in message || 'error' in message)) {
      reply = message;
      return true;
    }
    return false;
  });
  return reply;
}

async function callTool(name, args) {
  state.rpcId += 1;
  const id = state.rpcId;
  const request = {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  const response = await fetch('/mcp', {
    method: 'POST',
    cache: 'no-store',
    headers: {
      ...authHeaders(),
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': PROTOCOL_VERSION,
      'Mcp-Method': 'tools/call',
      'Mcp-Name': name,
    },
    body: JSON.stringify(request),
  });
  const reply = await readRpcReply(response, id);
  if (response.status === 401 || response.status === 429) throw friendlyHttpError(response.status, reply);
  if (!reply) throw new RequestFailed(`The server gave no answer (HTTP ${response.status})`, 'http_error');
  if (reply.error) throw new RequestFailed(reply.error.message, 'rpc_error');
  const result = reply.result;
  if (result.isError) {
    const structured = result.structuredContent ?? {};
    // A finished-but-failed execution carries its receipt; a refused call carries {code, message, next_step}.
    if (typeof structured.message === 'string' && typeof structured.code === 'string') {
      const message = structured.message === 'unknown or expired session'
        ? 'This session expired. Create a new session and build the plan again.'
        : structured.next_step ? `${structured.message}. ${structured.next_step}` : structured.message;
      throw new RequestFailed(message, structured.code);
    }
  }
  return result.structuredContent ?? {};
}

// ---------------------------------------------------------------------------------------------------------------
// Notices

function notify(message) {
  const notice = $('notice');
  notice.textContent = message;
  notice.hidden = message === '';
}

function clearNotice() {
  notify('');
}

async function guarded(action) {
  clearNotice();
  try {
    await action();
  } catch (error) {
    notify(error instanceof Error ? error.message : String(error));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Connecting, sessions and the event stream

async function connect(token) {
  state.token = token;
  state.config = await api('/ui/config');
  // Kept only once the server accepted it, and only for this tab.
  sessionStorage.setItem(TOKEN_KEY, token);
  showConfig(state.config);
  await newSession();
  $('auth-panel').hidden = true;
  $('session-panel').hidden = false;
  $('plan-panel').hidden = false;
  $('execution-panel').hidden = false;
  $('chat-panel').hidden = !state.config.chat.available;
  $('operator-panel').hidden = state.config.approval_channel !== 'operator';
  $('connection').textContent = 'Local / ready';
  $('command').focus();
}

function showConfig(config) {
  const mode = $('mode-chip');
  mode.textContent = `MODE ${String(config.mode).toUpperCase()} · APPROVAL ${config.approval_channel.toUpperCase()}`;
  mode.hidden = false;
  const model = $('model-chip');
  model.textContent = config.chat.available ? `MODEL ${config.chat.model}` : 'MODEL UNAVAILABLE';
  model.hidden = false;
}

async function newSession() {
  stopStream();
  const previous = state.sessionId;
  const created = await api('/sessions', { method: 'POST' });
  state.sessionId = created.session_id;
  $('session-id').textContent = state.sessionId;
  resetPlan();
  resetExecution();
  $('chat-log').replaceChildren();
  startStream(state.sessionId);
  if (previous) await api(`/sessions/${encodeURIComponent(previous)}`, { method: 'DELETE' }).catch(() => undefined);
}

async function lock() {
  stopStream();
  if (state.sessionId) await api(`/sessions/${encodeURIComponent(state.sessionId)}`, { method: 'DELETE' }).catch(() => undefined);
  sessionStorage.removeItem(TOKEN_KEY);
  state.token = '';
  state.operatorToken = '';
  state.sessionId = '';
  $('token').value = '';
  $('operator-token').value = '';
  $('operator-approvals').replaceChildren();
  for (const id of ['session-panel', 'plan-panel', 'execution-panel', 'chat-panel', 'operator-panel', 'mode-chip', 'model-chip']) $(id).hidden = true;
  $('auth-panel').hidden = false;
  $('connection').textContent = 'Locked';
}

function stopStream() {
  state.stream?.abort();
  state.stream = null;
}

function startStream(sessionId) {
  const controller = new AbortController();
  state.stream = controller;
  const run = async () => {
    const response = await fetch(`/stream?session_id=${encodeURIComponent(sessionId)}`, {
      headers: { ...authHeaders(), Accept: 'text/event-stream' },
      cache: 'no-store',
      signal: controller.signal,
    });
    if (!response.ok) throw friendlyHttpError(response.status, await readJson(response));
    $('connection').textContent = 'Local / live';
    await readSse(response, (frame) => {
      if (frame.data !== '') onExecutionEvent(frame.event, JSON.parse(frame.data));
      return false;
    });
  };
  run().then(
    () => {
      if (state.stream === controller) $('connection').textContent = 'Stream closed';
    },
    (error) => {
      if (controller.signal.aborted) return;
      $('connection').textContent = 'Stream lost';
      notify(error instanceof Error ? error.message : String(error));
    },
  );
}

function onExecutionEvent(type, event) {
  switch (type) {
    case 'output': {
      state.outputs.set(event.commandId, (state.outputs.get(event.commandId) ?? '') + event.text);
      if (event.commandId === state.commandId) $('output').append(event.text);
      return;
    }
    case 'command_started':
      if (event.commandId === state.commandId) setExecState('running');
      return;
    case 'command_paused':
      if (event.commandId === state.commandId) setExecState('paused');
      return;
    case 'command_resumed':
      if (event.commandId === state.commandId) setExecState('running');
      return;
    case 'command_finished':
      state.outcomes.set(event.commandId, event.outcome);
      if (event.commandId === state.commandId) showOutcome(event.outcome);
      return;
    case 'approved':
      if (state.plan && event.planId === state.plan.id) {
        state.plan.status = 'approved';
        showPlan(state.plan);
      }
      return;
    case 'session_closed':
      if (event.sessionId === state.sessionId) notify('This session expired. Create a new session and build the plan again.');
      return;
    default:
      // hello, ping, plan and policy_decision need no display.
      return;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Plan, approve, run

function resetPlan() {
  state.plan = null;
  $('decision').hidden = true;
}

function showPlan(plan) {
  state.plan = plan;
  const { policy } = plan;
  $('decision').hidden = false;
  $('decision-verdict').textContent = policy.verdict;
  $('decision-verdict').dataset.verdict = policy.verdict;
  $('decision-risk').textContent = `${policy.risk.toUpperCase()} RISK`;
  $('decision-status').textContent = plan.status;
  const reasons = policy.reasons.map((reason) => {
    const item = document.createElement('li');
    item.textContent = reason;
    return item;
  });
  $('decision-reasons').replaceChildren(...reasons);
  $('decision-next').textContent = plan.next_step ?? '';
  const needsApproval = plan.status === 'planned' && policy.requires_approval;
  const operatorOnly = state.config?.approval_channel === 'operator';
  $('approve').hidden = !needsApproval || operatorOnly;
  if (needsApproval && operatorOnly) {
    $('decision-next').textContent = `Waiting for an operator to approve approval id ${plan.approval_id}.`;
  }
  $('run').disabled = !(plan.status === 'approved' || (plan.status === 'planned' && !policy.requires_approval));
}

async function planCommand() {
  const command = $('command').value;
  const plan = await callTool('terminal_plan', { command, session_id: state.sessionId });
  showPlan(plan);
}

async function approvePlan() {
  const plan = state.plan;
  if (!plan) return;
  const approved = await callTool('terminal_approve', { session_id: plan.session_id, plan_id: plan.id, approval_id: plan.approval_id });
  showPlan(approved);
}

async function runPlan() {
  const plan = state.plan;
  if (!plan) return;
  $('run').disabled = true;
  resetExecution();
  const started = await callTool('terminal_execute', { session_id: plan.session_id, plan_id: plan.id, wait_seconds: 0 });
  plan.status = 'running';
  $('decision-status').textContent = plan.status;
  state.commandId = started.command_id;
  $('output').textContent = state.outputs.get(state.commandId) ?? '';
  const outcome = state.outcomes.get(state.commandId);
  if (outcome) showOutcome(outcome);
  else setExecState(started.status === 'paused' ? 'paused' : 'running');
}

function resetExecution() {
  state.commandId = '';
  $('output').textContent = '';
  $('exit-status').textContent = '';
  setExecState('idle');
}

function setExecState(value) {
  $('exec-state').textContent = value;
  const live = value === 'running' || value === 'paused';
  $('pause').disabled = value !== 'running';
  $('resume').disabled = value !== 'paused';
  $('cancel').disabled = !live;
}

function showOutcome(outcome) {
  setExecState(outcome.status);
  const detail = outcome.signal ? `signal ${outcome.signal}` : `exit ${outcome.exitCode}`;
  $('exit-status').textContent = `(${detail}${outcome.truncated ? ', output truncated' : ''})`;
  if (state.plan) $('decision-status').textContent = outcome.status;
}

async function control(tool) {
  await callTool(tool, { session_id: state.sessionId });
}

// ---------------------------------------------------------------------------------------------------------------
// Operator approvals (TERM_MCP_APPROVAL=operator): a separate token, a separate route, never MCP

async function operatorApi(path, method) {
  const response = await fetch(path, { method, headers: { Authorization: `Bearer ${state.operatorToken}` }, cache: 'no-store' });
  const json = await readJson(response);
  if (response.status === 401) throw new RequestFailed('The operator token was refused.', 'unauthorized');
  if (!response.ok) throw friendlyHttpError(response.status, json);
  return json;
}

function approvalItem(approval) {
  const item = document.createElement('li');
  const command = document.createElement('code');
  command.textContent = approval.command;
  const detail = document.createElement('small');
  detail.textContent = `${approval.risk} risk · ${approval.reasons.join('; ')} · expires ${approval.expires_at}`;
  const approve = document.createElement('button');
  approve.type = 'button';
  approve.textContent = 'Approve as operator';
  approve.dataset.approvalId = approval.approval_id;
  approve.addEventListener('click', () => void guarded(() => approveAsOperator(approval.approval_id)));
  item.append(command, detail, approve);
  return item;
}

async function loadApprovals() {
  state.operatorToken = $('operator-token').value.trim();
  const { approvals } = await operatorApi('/operator/approvals', 'GET');
  const items = approvals.map(approvalItem);
  if (items.length === 0) {
    const none = document.createElement('li');
    none.textContent = 'No approval is pending.';
    items.push(none);
  }
  $('operator-approvals').replaceChildren(...items);
}

async function approveAsOperator(approvalId) {
  await operatorApi(`/operator/approvals/${encodeURIComponent(approvalId)}`, 'POST');
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

function suggestionCard(plan) {
  const card = document.createElement('div');
  card.className = 'suggestion';
  const command = document.createElement('code');
  command.textContent = plan.command;
  const verdict = document.createElement('span');
  verdict.className = 'verdict';
  verdict.dataset.verdict = plan.verdict;
  verdict.textContent = `${plan.verdict} · ${plan.risk}`;
  const reasons = document.createElement('small');
  reasons.textContent = plan.reasons.join('; ');
  const use = document.createElement('button');
  use.type = 'button';
  use.className = 'secondary';
  use.textContent = 'Review';
  use.addEventListener('click', () => {
    $('command').value = plan.command;
    void guarded(planCommand);
  });
  card.append(command, verdict, reasons, use);
  return card;
}

async function askAdvisor() {
  const message = $('chat-message').value.trim();
  if (message === '') return;
  const log = $('chat-log');
  log.append(chatEntry('user', message));
  $('chat-message').value = '';
  try {
    const reply = await api('/chat', { method: 'POST', body: { message, session_id: state.sessionId } });
    const entry = chatEntry('assistant', reply.message);
    for (const plan of reply.plans) entry.append(suggestionCard(plan));
    log.append(entry);
  } catch (error) {
    log.append(chatEntry('error', `Model unavailable: ${error.message} Local terminal tools remain available.`));
  }
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

onSubmit('auth-form', () => connect($('token').value.trim()));
onSubmit('plan-form', planCommand);
onSubmit('chat-form', askAdvisor);
onSubmit('operator-form', loadApprovals);
onClick('new-session', newSession);
onClick('lock', lock);
onClick('approve', approvePlan);
onClick('run', runPlan);
onClick('pause', () => control('terminal_pause'));
onClick('resume', () => control('terminal_resume'));
onClick('cancel', () => control('terminal_cancel'));

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') clearNotice();
  if ((event.ctrlKey || event.metaKey) && event.key === 'Enter' && !$('plan-panel').hidden) {
    event.preventDefault();
    void guarded(planCommand);
  }
});

const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved) {
  $('token').value = saved;
  void guarded(() => connect(saved));
}

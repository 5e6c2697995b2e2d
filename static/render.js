// The one render of the page's state (store.js): everything the state decides (which screen, the chips, the
// ledger's cards, the execution strip, the banner) is written here and nowhere else. The terminal, the receipt
// panel, the advisor's log and the toast are outputs of their own, written by their sections.

import { isLive, isSettled, matchesSearch, renderCard } from './ledger.js';
import { formatBytes, formatSeconds, statusWord } from './words.js';

const $ = (id) => document.getElementById(id);

const STRIP = {
  idle: ['Idle', 'Nothing is running.'],
  running: ['Running', ''],
  paused: ['Paused', 'The process is stopped; Resume continues it, Cancel ends it.'],
};

export function render(state, previous) {
  renderScreen(state);
  if (state.config !== previous?.config || state.info !== previous?.info) renderConfig(state);
  if (state.scenarios !== previous?.scenarios) renderScenarios(state.scenarios);
  $('session-id').textContent = state.sessionId.slice(0, 8) || '—';
  $('session-id').title = state.sessionId;
  if (state.entries !== previous?.entries || state.search !== previous?.search || state.config !== previous?.config)
    renderLedger(state, previous);
  renderStrip(state.strip);
  renderBanner(state.banner);
  $('plan-button').disabled = state.planning || state.connection.kind === 'ended';
}

function renderScreen(state) {
  const locked = state.view === 'locked';
  $('gate').hidden = !locked;
  $('console').hidden = locked;
  $('jump').hidden = locked;
  $('session-tools').hidden = locked;
  for (const id of ['mode-chip', 'approval-chip', 'model-chip']) $(id).hidden = locked || state.config === null;
  $('gate-error').textContent = state.gateError;
  $('gate-error').hidden = state.gateError === '';
  const chip = $('connection');
  chip.textContent = state.connection.label;
  chip.dataset.state = state.connection.kind;
}

function renderConfig({ config, info }) {
  if (!config) return;
  $('mode-chip').textContent = `Mode ${String(config.mode)}`;
  $('approval-chip').textContent = config.approval_channel === 'operator' ? 'Approval by operator' : 'Approval by you';
  const chat = config.chat;
  $('model-chip').textContent = chat.available ? `Model ${chat.model}` : 'Advisor off';
  $('model-chip').title = chat.available
    ? 'The planning advisor suggests commands; you still plan and run them.'
    : 'Set DEEPSEEK_API_KEY on the server to turn on the planning advisor.';
  $('chat-panel').hidden = false;
  $('chat-panel').dataset.available = String(chat.available);
  $('chat-form').hidden = !chat.available;
  $('chat-setup').hidden = chat.available;
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
  if (typeof info?.network_allowed === 'boolean')
    add('Network', info.network_allowed ? 'Allowed by policy' : 'Denied by default');
  add(
    'Limits',
    `${formatSeconds(config.limits.command_timeout_seconds)} per command · ${formatBytes(config.limits.max_output_bytes)} output`,
  );
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
    confinement.network === 'filtered'
      ? `network through the proxy (${domains} allowed domain${domains === 1 ? '' : 's'})`
      : confinement.network === 'on'
        ? 'network on (unfiltered)'
        : 'no network';
  return `bubblewrap · workspace ${writable ? 'writable' : 'read-only'} · ${network}`;
}

function renderScenarios(scenarios) {
  $('scenario-list').replaceChildren(
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
      return item;
    }),
  );
  $('scenarios').hidden = scenarios.length === 0;
}

/** Cards by plan id, with the entry each one shows: a card is rebuilt only when its entry (or the search) changed. */
const cards = new Map();

function renderLedger(state, previous) {
  const channel = state.config?.approval_channel;
  const searchChanged = state.search !== previous?.search || state.config !== previous?.config;
  const shown = [];
  let matches = 0;
  for (const entry of [...state.entries].reverse()) {
    let kept = cards.get(entry.plan.id);
    const fresh = kept === undefined;
    if (fresh || kept.entry !== entry || searchChanged) {
      const node = renderCard(entry, channel, kept?.node, state.search);
      if (
        fresh &&
        previous !== undefined &&
        previous.entries.length > 0 &&
        state.entries.length > previous.entries.length
      )
        node.classList.add('fresh');
      kept = { entry, node };
      cards.set(entry.plan.id, kept);
    }
    const match = matchesSearch(entry, state.search);
    kept.node.hidden = !match;
    if (match) matches += 1;
    shown.push(kept.node);
  }
  const live = new Set(state.entries.map((entry) => entry.plan.id));
  for (const id of cards.keys()) if (!live.has(id)) cards.delete(id);
  $('ledger').replaceChildren(...shown);
  $('ledger-empty').hidden = state.entries.length > 0;
  $('ledger-count').textContent = state.entries.length > 0 ? String(state.entries.length) : '';
  $('collapse-finished').hidden = !state.entries.some(
    (entry) => entry.collapsed !== true && isSettled(entry.plan.status),
  );
  const summary = $('search-summary');
  summary.hidden = state.search === '';
  summary.textContent =
    state.search === ''
      ? ''
      : matches === 0
        ? 'No plan’s command or output contains that.'
        : `${matches} of ${state.entries.length} plan${state.entries.length === 1 ? '' : 's'} match.`;
}

/** The node of a plan's card (after a render). */
export function cardNode(planId) {
  return cards.get(planId)?.node ?? null;
}

function renderStrip({ status, detail }) {
  const [label, fallback] = STRIP[status] ?? [statusWord(status), ''];
  $('strip').dataset.state = status;
  $('exec-state').textContent = label;
  $('exec-detail').textContent = detail || fallback;
  $('pause').disabled = status !== 'running';
  $('resume').disabled = status !== 'paused';
  $('cancel').disabled = !isLive(status);
}

function renderBanner(banner) {
  $('banner').hidden = banner === null;
  $('banner-text').textContent = banner?.message ?? '';
  const button = $('banner-action');
  const label = { reconnect: 'Reconnect', 'new-session': 'Start a new session' }[banner?.action ?? ''];
  button.hidden = label === undefined;
  button.textContent = label ?? '';
  button.dataset.action = banner?.action ?? '';
}

// The plan ledger: one card per plan of the session, newest first. A card shows exactly what the server bound the
// plan to (command, directory, limits) read-only, and its buttons act on that plan, never on the command input.

import { renderAnsi, stripAnsi } from './ansi.js';
import { formatBytes, formatSeconds, planNote, statusWord } from './words.js';

const FINAL = new Set(['succeeded', 'failed', 'cancelled', 'timed_out']);
/** A card shows at most this much of its output (the end of it); the receipt holds all of it. */
const MAX_BLOCK_CHARS = 100_000;

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(label, action, className = 'secondary') {
  const node = element('button', className, label);
  node.type = 'button';
  node.dataset.action = action;
  return node;
}

function fact(list, term, value, className) {
  list.append(element('dt', '', term));
  const dd = element('dd', className ?? '');
  if (value instanceof Node) dd.append(value);
  else dd.textContent = value;
  list.append(dd);
}

/** Which actions a plan allows now (the server checks again; this only avoids offering what it would refuse). */
export function actionsOf(plan, approvalChannel) {
  const needsApproval = plan.status === 'planned' && plan.policy.requires_approval;
  return {
    approve: needsApproval && approvalChannel !== 'operator',
    run: plan.status === 'approved' || (plan.status === 'planned' && !plan.policy.requires_approval),
    retry: FINAL.has(plan.status),
  };
}

export function isLive(status) {
  return status === 'running' || status === 'paused';
}

/** Finished (or blocked): its card may be folded away. */
export function isSettled(status) {
  return FINAL.has(status) || status === 'blocked';
}

/** True when `query` ('' matches all) is in the plan's command or its output, ignoring case. */
export function matchesSearch(entry, query) {
  if (query === '') return true;
  const needle = query.toLowerCase();
  return (
    entry.plan.command.toLowerCase().includes(needle) ||
    stripAnsi(entry.output ?? '')
      .toLowerCase()
      .includes(needle)
  );
}

/** The output block: colours as in the terminal, or, while searching, plain text with each match marked. */
function outputBlock(output, query) {
  const pre = element('pre', 'card-output');
  pre.dataset.role = 'output';
  const shown = output.length > MAX_BLOCK_CHARS ? output.slice(-MAX_BLOCK_CHARS) : output;
  if (output.length > MAX_BLOCK_CHARS) pre.append(element('span', 'output-cut', '… the beginning is in the receipt\n'));
  if (query === '') {
    const body = element('span');
    renderAnsi(body, shown);
    pre.append(body);
    return pre;
  }
  const text = stripAnsi(shown);
  const lower = text.toLowerCase();
  const needle = query.toLowerCase();
  let at = 0;
  for (let found = lower.indexOf(needle); found >= 0; found = lower.indexOf(needle, at)) {
    pre.append(text.slice(at, found), element('mark', '', text.slice(found, found + needle.length)));
    at = found + needle.length;
  }
  pre.append(text.slice(at));
  return pre;
}

/**
 * Builds (or rebuilds, in place) the card of `entry` (see store.js). Buttons carry `data-action`; the ledger's
 * click handler finds the card's plan from `data-plan-id`. `search` marks its matches in the output block.
 */
export function renderCard(entry, approvalChannel, existing, search = '') {
  const { plan } = entry;
  const card = existing ?? element('article', 'plan-card');
  card.dataset.planId = plan.id;
  card.dataset.status = plan.status;
  card.classList.toggle('collapsed', entry.collapsed === true);
  card.setAttribute('aria-label', `Plan ${String(entry.number).padStart(2, '0')}: ${plan.command}`);

  const head = element('header', 'card-head');
  head.append(element('span', 'plan-number', `PLAN ${String(entry.number).padStart(2, '0')}`));
  const status = element('span', `badge status-${plan.status}`, statusWord(plan.status));
  status.dataset.role = 'status';
  head.append(status);
  // A blocked plan has no risk to weigh: its status says all.
  if (plan.status !== 'blocked') {
    const risk = element('span', `badge risk-${plan.policy.risk}`, `${String(plan.policy.risk).toUpperCase()} RISK`);
    risk.dataset.role = 'risk';
    head.append(risk);
  }
  if (isSettled(plan.status)) {
    const fold = button(entry.collapsed ? 'Expand' : 'Collapse', 'collapse', 'ghost small fold');
    fold.setAttribute('aria-expanded', String(entry.collapsed !== true));
    head.append(fold);
  }

  const command = element('pre', 'bound-command');
  command.append(element('code', '', plan.command));
  command.dataset.role = 'command';
  command.title = 'The exact command this plan is bound to (read-only)';

  const note = element('p', 'card-note', planNote(plan, approvalChannel));
  note.dataset.role = 'note';

  const facts = element('dl', 'card-facts');
  const cwd = element('code', '', plan.cwd);
  fact(facts, 'Directory', cwd);
  const files = plan.preview?.files_potentially_touched ?? [];
  fact(facts, 'Files touched', files.length === 0 ? 'None predicted' : files.join(', '));
  fact(facts, 'Network', plan.preview?.network_requested ? 'Requested' : 'Not requested');
  fact(
    facts,
    'Limits',
    `${formatSeconds(plan.limits?.timeout_seconds)} · ${formatBytes(plan.limits?.max_output_bytes)} output`,
  );

  const reasons = element('ul', 'card-reasons');
  for (const reason of plan.policy.reasons ?? []) reasons.append(element('li', '', reason));

  const actions = element('div', 'card-actions');
  const allowed = actionsOf(plan, approvalChannel);
  actions.append(button('Copy', 'copy'));
  if (allowed.approve) actions.append(button('Approve', 'approve', 'warn'));
  if (allowed.run) {
    const run = button('Run', 'run', 'primary');
    run.disabled = !allowed.run || entry.busy === true;
    actions.append(run);
  }
  if (allowed.retry) actions.append(button('Retry', 'retry'));
  if (FINAL.has(plan.status) && entry.hasReceipt) actions.append(button('Receipt', 'receipt'));

  if (entry.collapsed) {
    card.replaceChildren(head, command);
    return card;
  }
  const output = typeof entry.output === 'string' && entry.output !== '' ? [outputBlock(entry.output, search)] : [];
  card.replaceChildren(
    head,
    command,
    note,
    facts,
    ...(reasons.children.length > 0 ? [reasons] : []),
    ...output,
    actions,
  );
  return card;
}

// Planning and the ledger's cards: terminal_plan from the command box (with its ↑/↓ history), and the buttons of
// each card, which act on that card's plan whatever the command box holds since.

import { callTool } from './api.js';
import { CommandHistory } from './command-history.js';
import { isSettled } from './ledger.js';
import { toast } from './notices.js';
import { showReceipt } from './receipt-panel.js';
import { cardNode } from './render.js';
import { receiptOf, runEntry } from './run.js';
import { adoptSession } from './session.js';
import { $, NARROW, entryOf, pad, store } from './state.js';
import { withEntry } from './store.js';

export const history = new CommandHistory();

function addEntry(plan) {
  const entries = store.state.entries;
  const number = entries.length === 0 ? 1 : entries[entries.length - 1].number + 1;
  const entry = { plan, number, commandId: '', hasReceipt: false, busy: false, output: null, collapsed: false };
  store.update({ entries: [...entries, entry] });
  cardNode(plan.id)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  return entry;
}

export async function planCommand() {
  const command = $('command').value;
  if (command.trim() === '') {
    toast('Type a command first.');
    $('command').focus();
    return;
  }
  // Without a session, terminal_plan opens one for this tab (MCP has no other way to open one).
  const args = store.state.sessionId === '' ? { command } : { session_id: store.state.sessionId, command };
  const cwd = $('cwd').value.trim();
  if (cwd !== '') args.cwd = cwd;
  history.record(command);
  $('composer-note').textContent = '';
  store.update({ planning: true });
  try {
    const plan = await callTool('terminal_plan', args);
    adoptSession(plan.session_id);
    addEntry(plan);
  } finally {
    store.update({ planning: false });
  }
}

/** ↑ and ↓ in the command box walk the commands planned in this tab (the caret on the first or last line). */
export function onCommandKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const input = $('command');
  const text =
    event.key === 'ArrowUp' ? history.older(input.value) : event.key === 'ArrowDown' ? history.newer() : undefined;
  if (text === undefined) return;
  event.preventDefault();
  input.value = text;
  input.setSelectionRange(text.length, text.length);
}

export function setCollapsed(planIds, collapsed) {
  const ids = new Set(planIds);
  store.update((state) => ({
    entries: state.entries.map((entry) => (ids.has(entry.plan.id) ? { ...entry, collapsed } : entry)),
  }));
}

export function collapseFinished() {
  setCollapsed(
    store.state.entries.filter((entry) => isSettled(entry.plan.status)).map((entry) => entry.plan.id),
    true,
  );
}

export async function onCardAction(action, planId) {
  const entry = entryOf(planId);
  if (!entry) return;
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
      const approved = await callTool('terminal_approve', {
        session_id: store.state.sessionId,
        plan_id: plan.id,
        approval_id: plan.approval_id,
      });
      store.update((state) => ({
        entries: withEntry(state.entries, planId, (current) => ({ plan: { ...current.plan, ...approved } })),
      }));
      return;
    }
    case 'run':
      await runEntry(planId);
      return;
    case 'retry':
      addEntry(await callTool('terminal_retry', { session_id: store.state.sessionId, plan_id: plan.id }));
      return;
    case 'collapse':
      setCollapsed([planId], entry.collapsed !== true);
      return;
    case 'receipt': {
      const receipt = await receiptOf(planId);
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

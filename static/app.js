// term-mcp mission control. Plain browser modules, no build step, no external URLs, no inline handlers (CSP).
// Sessions, plans, approvals, execution, output and receipts go through MCP (`POST mcp`, stateless requests of the
// protocol version `GET ui/config` names); the session's event stream (`GET ui/events`) only brings news the tools
// cannot push (an operator's approval, a pause, the session's end), and the advisor asks `POST ui/chat`. No
// deprecated route is used. Output is read with terminal_read, so nothing is lost before the page listens.
//
// The sections, each a module around one store (state.js: one state, one render in render.js):
//   connection.js  the token gate, ui/config, scenarios, Reconnect
//   session.js     one session per tab (opened by its first plan), kept across reloads; the event stream
//   plans.js       planning, command history, the cards' buttons
//   run.js         running, following the output, the execution strip, settling with the receipt
//   operator.js    operator approvals;  advisor.js  the planning advisor
//   notices.js     banner, toast, and which of them an error calls for
// This file only wires the page's controls to them and starts.

import { askAdvisor } from './advisor.js';
import { connect, reconnect, useScenario } from './connection.js';
import { clearBanner, guarded } from './notices.js';
import { forgetOperatorToken, loadApprovals, operatorGuarded } from './operator.js';
import { collapseFinished, onCardAction, onCommandKey, planCommand } from './plans.js';
import { copyReceiptJson, exportRedacted, importReceipt } from './receipt-panel.js';
import { control } from './run.js';
import { lock, newSession } from './session.js';
import { $, TOKEN_KEY, live, store } from './state.js';
import { createTerminalView } from './terminal-view.js';

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
onClick('lock', async () => {
  forgetOperatorToken();
  await lock();
});
onClick('pause', () => control('terminal_pause'));
onClick('resume', () => control('terminal_resume'));
onClick('cancel', () => control('terminal_cancel'));
onClick('clear-output', async () => live.terminal.clear());
onClick('collapse-finished', async () => collapseFinished());
onClick('receipt-export', exportRedacted);
onClick('receipt-copy', copyReceiptJson);
$('banner-dismiss').addEventListener('click', clearBanner);
$('banner-action').addEventListener('click', (event) => {
  const action = event.currentTarget.dataset.action;
  if (action === 'reconnect') void guarded(reconnect);
  else if (action === 'new-session') void guarded(newSession);
});
$('receipt-file').addEventListener('change', (event) => {
  const [file] = event.target.files;
  event.target.value = '';
  if (file) void guarded(() => importReceipt(file));
});
$('ledger').addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-action]') : null;
  const card = button?.closest('[data-plan-id]');
  if (button && card) void guarded(() => onCardAction(button.dataset.action, card.dataset.planId));
});
$('scenario-list').addEventListener('click', (event) => {
  const scenario = event.target instanceof Element ? event.target.closest('[data-scenario]') : null;
  if (scenario) useScenario(scenario.dataset.scenario);
});
$('scenario-list').addEventListener('scroll', showScenarioCue, { passive: true });
new ResizeObserver(showScenarioCue).observe($('scenario-list'));
$('scenario-more').addEventListener('click', () => {
  const list = $('scenario-list');
  list.scrollBy({ left: list.clientWidth * 0.8, behavior: 'smooth' });
});
$('command').addEventListener('keydown', onCommandKey);
$('output-search').addEventListener('input', (event) => store.update({ search: event.target.value.trim() }));

/** The scenario rail scrolls sideways when its cards do not fit: a fade and a "More" button say so. */
function showScenarioCue() {
  const list = $('scenario-list');
  const more = list.scrollLeft + list.clientWidth < list.scrollWidth - 2;
  $('scenarios').dataset.more = String(more);
  $('scenario-more').hidden = !more;
}

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
  } else if (
    event.key === '/' &&
    inConsole &&
    !isTyping(event.target) &&
    !event.ctrlKey &&
    !event.metaKey &&
    !event.altKey
  ) {
    event.preventDefault();
    $('command').focus();
  } else if (event.key === 'Escape') {
    clearBanner();
    $('toast').hidden = true;
    if (event.target === $('command')) $('command').value = '';
    if (event.target === $('output-search')) {
      $('output-search').value = '';
      store.update({ search: '' });
    }
  }
});

live.terminal = await createTerminalView($('terminal'));
live.terminal.note('The output of the plans you run appears here, colours and all.');
const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved) {
  $('token').value = saved;
  await guarded(() => connect(saved));
}

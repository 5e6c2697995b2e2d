// Operator approvals (TERM_MCP_APPROVAL=operator): a separate token, a separate route, never MCP. The token stays
// in this module's memory only.

import { baseUrl, RequestFailed } from './api.js';
import { report, showBanner } from './notices.js';
import { $, entryOf, store } from './state.js';
import { withPlan } from './store.js';

let operatorToken = '';

export function forgetOperatorToken() {
  operatorToken = '';
}

async function operatorApi(path, method) {
  let response;
  try {
    response = await fetch(new URL(path, baseUrl()), {
      method,
      headers: { Authorization: `Bearer ${operatorToken}` },
      cache: 'no-store',
    });
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

export async function operatorGuarded(action) {
  try {
    await action();
  } catch (error) {
    if (error instanceof RequestFailed && error.code === 'operator_unauthorized')
      showBanner('The server refused the operator token.');
    else report(error);
  }
}

export async function loadApprovals() {
  operatorToken = $('operator-token').value.trim();
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
  if (entryOf(approved.plan_id)?.plan.status === 'planned') {
    store.update((state) => ({ entries: withPlan(state.entries, approved.plan_id, { status: 'approved' }) }));
  }
  await loadApprovals();
}

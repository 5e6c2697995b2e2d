// The signed-receipt panel. The seal is the server's verdict (`POST receipts/validate`): the browser never holds
// the signing key, so it never claims a receipt is genuine by itself. Import (≤ 2 MB), export the share-redacted
// copy (`POST receipts/redact`), copy the JSON.

import { renderAnsi } from './ansi.js';
import { api, RequestFailed } from './api.js';
import { formatDuration, sentenceFor, statusWord } from './words.js';

export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

const $ = (id) => document.getElementById(id);

const SEALS = {
  verified: ['VERIFIED', 'Signature and structure checked by the server.'],
  bad_signature: [
    'BAD SIGNATURE',
    'The structure is valid but the signature does not match: the receipt was changed or signed with another key.',
  ],
  invalid: ['INVALID', 'This is not a valid term-mcp receipt.'],
  unverified: [
    'UNVERIFIED (server cannot check)',
    'This server has no receipt validator, so the seal could not be checked.',
  ],
  unreachable: ['UNVERIFIED (server not answering)', 'The server did not answer, so the seal could not be checked.'],
  too_large: [
    'UNVERIFIED (too large to check)',
    'This receipt is larger than the server accepts in one request (MAX_REQUEST_BYTES), so the seal could not be checked here; term-mcp receipt validate checks it from the file.',
  ],
  checking: ['CHECKING…', 'Asking the server to check the signature.'],
};

let current = null;
let mode = '';

export function setReceiptMode(value) {
  mode = value;
}

function setSeal(kind, errors = []) {
  const [label, detail] = SEALS[kind];
  const seal = $('receipt-seal');
  seal.textContent = label;
  seal.dataset.seal = kind;
  const lines = errors.slice(0, 5).map((error) => (typeof error === 'string' ? error : JSON.stringify(error)));
  $('receipt-seal-detail').textContent = [detail, ...lines].join(' ');
}

function text(id, value) {
  $(id).textContent = value === undefined || value === null || value === '' ? '—' : String(value);
}

function permissionOf(receipt) {
  const how =
    receipt.approved === true
      ? receipt.policy?.requires_approval
        ? 'explicit approval'
        : 'policy allowed'
      : 'approval missing';
  return `${receipt.mode ?? mode ?? '—'} / ${how}`;
}

function endOf(receipt) {
  if (receipt.signal !== null && receipt.signal !== undefined) return `signal ${receipt.signal}`;
  if (receipt.exit_code !== null && receipt.exit_code !== undefined) return `exit ${receipt.exit_code}`;
  return '—';
}

/** `run_on_open_changes`: absent (not compared: read-only workspace, no sandbox), none, or the paths named. */
function runOnOpenOf(receipt) {
  const changes = receipt.run_on_open_changes;
  if (!Array.isArray(changes)) return 'Not compared';
  return changes.length === 0 ? 'None' : `CHANGED: ${changes.join(', ')}`;
}

function note(message) {
  $('receipt-note').textContent = message;
}

/** Shows `receipt` and asks the server for its seal. `origin` says where it came from ("this session", a file). */
export async function showReceipt(receipt, origin) {
  current = receipt;
  $('receipt-empty').hidden = true;
  $('receipt-body').hidden = false;
  note('');
  text('receipt-origin', origin);
  text('receipt-status', statusWord(receipt.status));
  $('receipt-status').dataset.status = receipt.status ?? '';
  text('receipt-end', endOf(receipt));
  text('receipt-duration', formatDuration(receipt.duration_ms));
  text('receipt-permission', permissionOf(receipt));
  text('receipt-command', receipt.command);
  text('receipt-cwd', receipt.cwd);
  text('receipt-id', receipt.id);
  text('receipt-plan-id', receipt.plan_id);
  text('receipt-command-id', receipt.command_id);
  text('receipt-session-id', receipt.session_id);
  text('receipt-started', receipt.started_at);
  // Output keeps its colours and loses every other escape: no raw "\x1b[…" on the page.
  renderAnsi($('receipt-stdout'), typeof receipt.stdout === 'string' && receipt.stdout !== '' ? receipt.stdout : '—');
  renderAnsi($('receipt-stderr'), typeof receipt.stderr === 'string' && receipt.stderr !== '' ? receipt.stderr : '—');
  text('receipt-truncated', receipt.output_truncated === true ? 'Yes: the output went over the limit' : 'No');
  text('receipt-run-on-open', runOnOpenOf(receipt));
  $('receipt-run-on-open').dataset.changed = String(
    Array.isArray(receipt.run_on_open_changes) && receipt.run_on_open_changes.length > 0,
  );
  text('receipt-signature', receipt.signature);
  $('receipt-export').disabled = false;
  $('receipt-copy').disabled = false;
  setSeal('checking');
  try {
    const verdict = await api('receipts/validate', { method: 'POST', body: receipt, accept: [400] });
    if (current !== receipt) return;
    if (verdict?.schema_valid === true && verdict.signature_valid === true) setSeal('verified');
    else if (verdict?.schema_valid === true) setSeal('bad_signature', verdict.errors ?? []);
    else setSeal('invalid', verdict?.errors ?? []);
  } catch (error) {
    if (current !== receipt) return;
    if (error instanceof RequestFailed && error.code === 'not_available') setSeal('unverified');
    else if (error instanceof RequestFailed && error.code === 'unreachable') setSeal('unreachable');
    else if (error instanceof RequestFailed && error.code === 'too_large') setSeal('too_large');
    else {
      setSeal('unverified');
      note(sentenceFor(error));
    }
  }
}

export function clearReceipt() {
  current = null;
  const seal = $('receipt-seal');
  seal.textContent = '';
  seal.dataset.seal = 'none';
  $('receipt-empty').hidden = false;
  $('receipt-body').hidden = true;
  $('receipt-export').disabled = true;
  $('receipt-copy').disabled = true;
  note('');
}

/** A picked file that is not a receipt: the receipt shown before is put away (its seal says nothing about this file). */
function refuseImport(file, why) {
  clearReceipt();
  note(`${file.name}: ${why}`);
}

/** Reads a receipt file the person picked. */
export async function importReceipt(file) {
  if (file.size > MAX_IMPORT_BYTES) {
    refuseImport(file, 'This file is larger than 2 MB; a receipt is far smaller. Pick the receipt JSON file.');
    return;
  }
  let receipt;
  try {
    receipt = JSON.parse(await file.text());
  } catch {
    refuseImport(
      file,
      'This file is not JSON, so it is not a receipt. Pick a receipt exported by term-mcp (a .json file).',
    );
    return;
  }
  if (receipt === null || typeof receipt !== 'object' || Array.isArray(receipt)) {
    refuseImport(file, 'This file holds JSON, but not a receipt object.');
    return;
  }
  await showReceipt(
    receipt.receipt && typeof receipt.receipt === 'object' ? receipt.receipt : receipt,
    `imported from ${file.name}`,
  );
}

function download(name, json) {
  const blob = new Blob([`${JSON.stringify(json, null, 2)}\n`], { type: 'application/json' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** Asks the server for the share-redacted, re-signed copy and downloads it. */
export async function exportRedacted() {
  if (!current) return;
  try {
    const { receipt } = await api('receipts/redact', { method: 'POST', body: current });
    download(`term-mcp-receipt-${receipt.id ?? 'unknown'}-redacted.json`, receipt);
    note('Downloaded the share-redacted copy: command, directory and output are replaced, and it is signed again.');
  } catch (error) {
    if (error instanceof RequestFailed && error.code === 'not_available')
      note('This server cannot make a share-redacted copy (it has no receipt redactor).');
    else if (error instanceof RequestFailed && error.details?.status === 400)
      note('Only a valid signed receipt can be redacted for sharing.');
    else if (error instanceof RequestFailed && error.code === 'too_large')
      note('This receipt is larger than the server accepts in one request, so it cannot be redacted here.');
    else note(sentenceFor(error));
  }
}

export async function copyReceiptJson() {
  if (!current) return;
  const json = JSON.stringify(current, null, 2);
  try {
    await navigator.clipboard.writeText(json);
    note('Receipt JSON copied to the clipboard.');
  } catch {
    note('The browser did not allow copying. Select the fields above and copy them by hand.');
  }
}

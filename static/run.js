// Running a plan: terminal_execute, the output followed with terminal_read long-polls into the terminal and into
// the plan's own output block, the execution strip's Pause/Resume/Cancel, and the receipt when it ends.

import { callTool, RequestFailed } from './api.js';
import { actionsOf, isLive } from './ledger.js';
import { report, showBanner } from './notices.js';
import { showReceipt } from './receipt-panel.js';
import { $, NARROW, entryOf, live, pad, pause, store } from './state.js';
import { withEntry, withPlan } from './store.js';
import { formatDuration, sentenceFor, statusWord } from './words.js';

/** terminal_read long-poll: the server answers as soon as there is output, or after this many seconds. */
const READ_WAIT_SECONDS = 10;
/** At most ~4 reads a second (RATE_LIMIT_PER_MINUTE defaults to 600), each up to 64 KiB. */
const MIN_READ_INTERVAL_MS = 250;
const RATE_LIMITED_BACKOFF_MS = 2000;

function setPlanStatus(planId, status) {
  store.update((state) => ({ entries: withPlan(state.entries, planId, { status }) }));
}

function appendOutput(planId, text) {
  if (text === '') return;
  store.update((state) => ({
    entries: withEntry(state.entries, planId, (entry) => ({ output: (entry.output ?? '') + text })),
  }));
}

/** The followed command's status changed (a read, or the stream's pause/resume news). */
export function setLiveStatus(status) {
  const active = store.state.active;
  if (!active) return;
  setPlanStatus(active.planId, status);
  const entry = entryOf(active.planId);
  store.update({
    strip: { status, detail: status === 'running' ? `Plan ${pad(entry.number)}: ${entry.plan.command}` : '' },
  });
}

export async function runEntry(planId) {
  if (store.state.active) {
    showBanner(sentenceFor(new RequestFailed('process_limit_reached')));
    return;
  }
  const entry = entryOf(planId);
  if (!entry || !actionsOf(entry.plan, store.state.config.approval_channel).run) return;
  store.update((state) => ({ entries: withEntry(state.entries, planId, () => ({ busy: true })) }));
  let started;
  try {
    started = await callTool('terminal_execute', {
      session_id: store.state.sessionId,
      plan_id: planId,
      wait_seconds: 0,
    });
  } finally {
    store.update((state) => ({ entries: withEntry(state.entries, planId, () => ({ busy: false })) }));
  }
  if (NARROW.matches) $('strip').scrollIntoView({ behavior: 'smooth', block: 'start' });
  store.update((state) => ({
    entries: withEntry(state.entries, planId, () => ({ commandId: started.command_id, output: '' })),
  }));
  if (typeof started.signature === 'string') {
    // Ended before the answer: the answer is the receipt itself.
    live.terminal.note(`$ ${entry.plan.command}`);
    const output = await readAll(started.command_id);
    live.terminal.write(output);
    appendOutput(planId, output);
    settle(planId, started, true);
    return;
  }
  setPlanStatus(planId, 'running');
  follow(planId, started.command_id, `$ ${entry.plan.command}`);
}

/** All the output a command kept, stdout then stderr (both up to the server's limit). */
export async function readAll(commandId) {
  let stdout = '';
  let stderr = '';
  let stdoutOffset = 0;
  let stderrOffset = 0;
  for (;;) {
    const read = await callTool('terminal_read', {
      session_id: store.state.sessionId,
      command_id: commandId,
      stdout_offset: stdoutOffset,
      stderr_offset: stderrOffset,
    });
    stdout += read.stdout.text;
    stderr += read.stderr.text;
    const progressed = read.stdout.next_offset !== stdoutOffset || read.stderr.next_offset !== stderrOffset;
    stdoutOffset = read.stdout.next_offset;
    stderrOffset = read.stderr.next_offset;
    if ((read.stdout.complete !== false && read.stderr.complete !== false) || !progressed) return stdout + stderr;
  }
}

/** Streams a command's output into the terminal and its card with terminal_read long-polls, until it ends. */
export function follow(planId, commandId, heading) {
  const generation = ++live.generation;
  const entry = entryOf(planId);
  store.update({
    active: { planId, commandId },
    strip: { status: entry.plan.status, detail: `Plan ${pad(entry.number)}: ${entry.plan.command}` },
  });
  live.terminal.note(heading);
  const loop = async () => {
    let stdoutOffset = 0;
    let stderrOffset = 0;
    for (;;) {
      let read;
      try {
        read = await callTool('terminal_read', {
          session_id: store.state.sessionId,
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
      if (generation !== live.generation) return;
      live.terminal.write(read.stdout.text);
      live.terminal.write(read.stderr.text);
      // From offset 0 (a reattach replays it all): the card's block is the whole output so far.
      if (stdoutOffset === 0 && stderrOffset === 0)
        store.update((state) => ({ entries: withEntry(state.entries, planId, () => ({ output: '' })) }));
      appendOutput(planId, read.stdout.text + read.stderr.text);
      stdoutOffset = read.stdout.next_offset;
      stderrOffset = read.stderr.next_offset;
      const drained =
        (read.stdout.complete && read.stderr.complete) || (read.stdout.text === '' && read.stderr.text === '');
      if (read.finished && drained) break;
      if (!read.finished && isLive(read.status) && read.status !== entryOf(planId)?.plan.status)
        setLiveStatus(read.status);
      // A chatty command would otherwise cost one request per chunk; batch its output instead.
      if (!read.finished) await pause(MIN_READ_INTERVAL_MS);
    }
    const receipt = await receiptOf(planId);
    if (generation !== live.generation) return;
    store.update({ active: null });
    if (receipt) settle(planId, receipt, true);
  };
  loop().catch((error) => {
    if (generation !== live.generation) return;
    store.update({ active: null });
    report(error);
  });
}

/** The receipt of a finished plan; it is recorded as the command ends, so it may take a moment to appear. */
export async function receiptOf(planId) {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const found = await callTool('terminal_receipt', { session_id: store.state.sessionId, plan_id: planId });
    if (found && typeof found.signature === 'string') return found;
    await pause(250);
  }
  return null;
}

export function summaryOf(receipt) {
  const end = receipt.signal !== null ? `signal ${receipt.signal}` : `exit ${receipt.exit_code}`;
  return `${statusWord(receipt.status)} · ${end} · ${formatDuration(receipt.duration_ms)}${receipt.output_truncated ? ' · output truncated' : ''}`;
}

/** A plan's command ended: its card, and (`show`) the terminal's last line, the strip and the receipt panel. */
export function settle(planId, receipt, show) {
  store.update((state) => ({
    entries: withEntry(state.entries, planId, (entry) => ({
      plan: { ...entry.plan, status: receipt.status },
      hasReceipt: true,
    })),
  }));
  if (!show) return;
  const entry = entryOf(planId);
  const summary = summaryOf(receipt);
  live.terminal.endOfOutput();
  live.terminal.note(`— ${summary}`);
  store.update({ strip: { status: receipt.status, detail: `Plan ${pad(entry.number)}: ${summary}` } });
  void showReceipt(receipt, `plan ${pad(entry.number)} of this session`);
}

export async function control(tool) {
  const active = store.state.active;
  if (!active) return;
  const answer = await callTool(tool, { session_id: store.state.sessionId, command_id: active.commandId });
  if (tool === 'terminal_pause' && answer.paused) setLiveStatus('paused');
  if (tool === 'terminal_resume' && answer.resumed) setLiveStatus('running');
  if (tool === 'terminal_cancel' && answer.cancelled)
    store.update((state) => ({ strip: { ...state.strip, detail: 'Cancelling…' } }));
}

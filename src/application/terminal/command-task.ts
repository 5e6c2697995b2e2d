import { DomainError } from '../../domain/errors.js';
import { SandboxSetupFailed } from '../../domain/execution/execution-errors.js';
import type { ExecutionReceipt } from '../../domain/terminal/receipt-types.js';
import { ERROR_CODES, MODERN_PROTOCOL_VERSION } from '../../domain/protocol/versions.js';
import type { TaskOutcome, TaskWork } from '../tasks/task-work.js';
import { refusalResultOf, toolResultOf } from '../tools/tool-catalog.js';
import type { ToolOutcome } from '../tools/tool-definition.js';
import type { CommandReader } from './command-reader.js';
import type { CommandSignals } from './command-signals.js';
import type { ExecutionResult } from './execution-service.js';

/** The receipt could not be had (nothing of the client's doing): SEP-2663 `failed`, with no detail to the client. */
const INTERNAL_FAILURE: TaskOutcome = Object.freeze({
  status: 'failed',
  error: Object.freeze({ code: ERROR_CODES.internalError, message: 'Internal error' }),
});

/** Bytes of each stream shown in a working task's status message: enough to see where a build is. */
const TAIL_BYTES = 512;

export interface CommandTaskDependencies {
  readonly reader: CommandReader;
  readonly signals: CommandSignals;
  /** The receipt as `terminal_execute` returns it when the command finishes within its wait. */
  readonly finished: (receipt: ExecutionReceipt) => ToolOutcome;
}

/**
 * A command that outlived its `terminal_execute` wait, as a task: its status message is the redacted output tail,
 * its result the signed receipt (`isError` unless it succeeded: a non-zero exit is a tool error, never `failed`),
 * and cancelling it terminates its process group exactly as `terminal_cancel` does.
 */
export function commandTask(
  running: Extract<ExecutionResult, { kind: 'running' }>,
  deps: CommandTaskDependencies,
): TaskWork {
  const { plan, command } = running;
  const selector = { sessionId: plan.sessionId, commandId: command.id };
  return {
    async statusMessage() {
      try {
        const sizes = await deps.reader.read({
          ...selector,
          stdoutOffset: 0,
          stderrOffset: 0,
          maxBytes: 1,
          waitSeconds: 0,
        });
        const tail = await deps.reader.read({
          ...selector,
          stdoutOffset: Math.max(0, sizes.stdout.capturedBytes - TAIL_BYTES),
          stderrOffset: Math.max(0, sizes.stderr.capturedBytes - TAIL_BYTES),
          maxBytes: TAIL_BYTES,
          waitSeconds: 0,
        });
        const lines = [
          `running since ${tail.outcome.startedAt}: session_id ${tail.sessionId}, command_id ${tail.commandId}`,
        ];
        if (tail.stdout.text !== '') lines.push(`stdout (last ${TAIL_BYTES} bytes):`, tail.stdout.text);
        if (tail.stderr.text !== '') lines.push(`stderr (last ${TAIL_BYTES} bytes):`, tail.stderr.text);
        return lines.join('\n');
      } catch {
        // The session may have been closed meanwhile: the next tasks/get shows how the command ended.
        return undefined;
      }
    },
    outcome: running.receipt.then(completedWith).catch((): TaskOutcome => INTERNAL_FAILURE),
    cancel() {
      void deps.signals.cancel(selector).catch(() => undefined);
    },
  };

  function completedWith(receipt: ExecutionReceipt): TaskOutcome {
    // The sandbox could not be set up (the receipt says failed): the same refusal the call itself would have given.
    const setupFailure = command.setupFailure();
    if (setupFailure !== undefined) return completed(refusalResultOf(new SandboxSetupFailed(command.id, setupFailure)));
    try {
      // Tasks are a 2026-07-28 extension: the result may carry the output's resource links.
      return completed(toolResultOf(deps.finished(receipt), MODERN_PROTOCOL_VERSION));
    } catch (error) {
      if (error instanceof DomainError) return completed(refusalResultOf(error));
      return INTERNAL_FAILURE;
    }
  }
}

function completed(result: object): TaskOutcome {
  return { status: 'completed', result: { ...result } };
}

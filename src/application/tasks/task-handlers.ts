import { ERROR_CODES } from '../../domain/protocol/versions.js';
import type { FeatureCall, FeatureHandler } from '../mcp/feature-handlers.js';
import { McpError } from '../mcp/mcp-error.js';
import { parseParams } from '../mcp/method-params.js';
import { declaresTasks, TASKS_EXTENSION } from './task-extension.js';
import { TaskIdParamsSchema, UpdateTaskParamsSchema } from './task-params.js';
import type { TaskStore } from './task-store.js';

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` (ext-tasks draft). Served to modern requests that declare the
 * extension; `tasks/result` and `tasks/list` were removed from the extension and stay unknown methods (-32601).
 */
export function taskHandlers(store: TaskStore): ReadonlyMap<string, FeatureHandler> {
  return new Map<string, FeatureHandler>([
    [
      'tasks/get',
      async (call) => {
        const { taskId } = parseParams(TaskIdParamsSchema, gated(call, 'tasks/get'), 'tasks/get');
        const task = await store.get(call.principal, taskId);
        if (task === undefined) throw unknownTask(taskId);
        return { body: { ...task } };
      },
    ],
    [
      'tasks/update',
      async (call) => {
        const { taskId } = parseParams(UpdateTaskParamsSchema, gated(call, 'tasks/update'), 'tasks/update');
        // No task of ours waits for input, so responses are acknowledged and ignored (SEP-2663: unknown keys are).
        if (!store.has(call.principal, taskId)) throw unknownTask(taskId);
        return { body: {} };
      },
    ],
    [
      'tasks/cancel',
      async (call) => {
        const { taskId } = parseParams(TaskIdParamsSchema, gated(call, 'tasks/cancel'), 'tasks/cancel');
        if (!store.cancel(call.principal, taskId)) throw unknownTask(taskId);
        // An empty ack, like on a task that has already ended; the next tasks/get shows `cancelled` once it is.
        return { body: {} };
      },
    ],
  ]);
}

/**
 * The task surface exists only for modern requests that declare the extension (2026-07-28 "Missing required
 * capabilities": -32021 naming what to declare). Legacy sessions have no such method: the 2025-11-25 task shape is
 * not implemented (docs/tools.md).
 */
function gated(call: FeatureCall, method: string): Record<string, unknown> | undefined {
  if (call.era !== 'modern') throw new McpError(ERROR_CODES.methodNotFound, 'Method not found', { method });
  if (!declaresTasks(call.params)) {
    throw new McpError(
      ERROR_CODES.missingRequiredClientCapability,
      `${method} requires the ${TASKS_EXTENSION} extension`,
      {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      },
    );
  }
  return call.params;
}

/** Unknown, expired and another principal's tasks get the same answer: nothing tells them apart. */
function unknownTask(taskId: string): McpError {
  return new McpError(ERROR_CODES.invalidParams, 'Unknown task', { taskId });
}

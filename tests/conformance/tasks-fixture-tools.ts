import { z } from 'zod';
import { McpError } from '../../src/application/mcp/mcp-error';
import { TASKS_EXTENSION } from '../../src/application/tasks/task-extension';
import type { TaskOutcome, TaskWork } from '../../src/application/tasks/task-work';
import { toolResultOf } from '../../src/application/tools/tool-catalog';
import { defineTool, type ToolDefinition, type ToolOutcome } from '../../src/application/tools/tool-definition';
import { ERROR_CODES } from '../../src/domain/protocol/versions';

/**
 * The fixture tools the conformance runner's tasks-* scenarios call (their "Required server fixtures"), for
 * .ci/conformance.sh only: they drive term-mcp's real task machinery (TaskStore, tasks/* handlers, the dispatcher, the
 * HTTP header guard) with the runner's own tools. term-mcp's product tool that creates tasks is terminal_execute,
 * proven by tests/e2e/tasks-extension.test.ts. Never part of the server's catalog.
 */

/** Work that ends on its own after `ms` with `outcome`, or at once when cancelled. */
function timedWork(ms: number, outcome: TaskOutcome, message: string): TaskWork {
  let settle: (value: TaskOutcome) => void = () => undefined;
  const settled = new Promise<TaskOutcome>((resolve) => {
    settle = resolve;
  });
  const timer = setTimeout(() => settle(outcome), ms);
  return {
    statusMessage: async () => message,
    outcome: settled,
    cancel() {
      clearTimeout(timer);
      settle(outcome);
    },
  };
}

function completed(outcome: ToolOutcome): TaskOutcome {
  return { status: 'completed', result: { ...toolResultOf(outcome, undefined) } };
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** A placeholder answer for a call whose task was created: the catalog's result is replaced by the task. */
const TASK_CREATED: ToolOutcome = { structured: { task: 'created' } };

export function tasksFixtureTools(): ToolDefinition[] {
  return [
    defineTool({
      name: 'greet',
      title: 'Greet (conformance fixture)',
      description: 'Sync-only: returns Hello, {name}!',
      input: z.object({ name: z.string() }).strict(),
      output: z.object({ greeting: z.string() }),
      annotations: { readOnlyHint: true },
      async call(args) {
        const greeting = `Hello, ${args.name}!`;
        return { structured: { greeting }, text: greeting };
      },
    }),
    defineTool({
      name: 'slow_compute',
      title: 'Slow compute (conformance fixture)',
      description: 'Task-supporting: sleeps `seconds` seconds, then answers; 0 answers at once.',
      input: z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }).strict(),
      output: z.object({ label: z.string(), seconds: z.number() }),
      annotations: { readOnlyHint: true },
      async call(args, context) {
        const answer: ToolOutcome = {
          structured: { label: args.label ?? '', seconds: args.seconds },
          text: `computed ${args.label ?? ''} in ${args.seconds} s`,
        };
        if (args.seconds === 0) return answer;
        if (context.tasks === undefined) {
          await delay(args.seconds * 1000, context.signal);
          return answer;
        }
        context.tasks.create(timedWork(args.seconds * 1000, completed(answer), `computing ${args.label ?? ''}`));
        return TASK_CREATED;
      },
    }),
    defineTool({
      name: 'failing_job',
      title: 'Failing job (conformance fixture)',
      description: 'Task required: ends after about a second with a tool error (completed, isError).',
      input: z.object({}).passthrough(),
      output: z.object({ failed: z.boolean() }),
      annotations: { readOnlyHint: true },
      async call(_args, context) {
        if (context.tasks === undefined) {
          throw new McpError(
            ERROR_CODES.missingRequiredClientCapability,
            `failing_job requires the ${TASKS_EXTENSION} extension`,
            {
              requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
            },
          );
        }
        context.tasks.create(
          timedWork(
            1000,
            completed({ structured: { failed: true }, text: 'the job failed', isError: true }),
            'failing',
          ),
        );
        return TASK_CREATED;
      },
    }),
    defineTool({
      name: 'protocol_error_job',
      title: 'Protocol error job (conformance fixture)',
      description: 'Task-supporting: ends in a protocol error (failed, with a JSON-RPC error).',
      input: z.object({}).passthrough(),
      output: z.object({}),
      annotations: { readOnlyHint: true },
      async call(_args, context) {
        if (context.tasks === undefined) throw new McpError(ERROR_CODES.internalError, 'Internal error');
        context.tasks.create(
          timedWork(
            500,
            { status: 'failed', error: { code: ERROR_CODES.internalError, message: 'Internal error' } },
            'about to fail',
          ),
        );
        return TASK_CREATED;
      },
    }),
  ];
}

import { z } from 'zod';

/** Params of the tasks extension's methods (ext-tasks draft); `_meta` is validated by the dispatcher. */
export const TaskIdParamsSchema = z.looseObject({ taskId: z.string().min(1) });
export const UpdateTaskParamsSchema = z.looseObject({
  taskId: z.string().min(1),
  inputResponses: z.record(z.string(), z.unknown()).optional(),
});

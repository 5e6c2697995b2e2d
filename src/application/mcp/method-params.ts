import { z } from 'zod';
import { ERROR_CODES } from '../../domain/protocol/versions.js';
import { McpError } from './mcp-error.js';

/** Params of each method we serve; `_meta` is validated separately (request-meta.ts). */
export const ListParamsSchema = z.looseObject({ cursor: z.string().optional() });
export const CallToolParamsSchema = z.looseObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).optional(),
});
export const ReadResourceParamsSchema = z.looseObject({ uri: z.string() });
export const GetPromptParamsSchema = z.looseObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).optional(),
});
export const InitializeParamsSchema = z.looseObject({
  protocolVersion: z.string(),
  capabilities: z.record(z.string(), z.unknown()),
  clientInfo: z.looseObject({ name: z.string(), version: z.string() }),
});
export const CancelledParamsSchema = z.looseObject({
  requestId: z.union([z.string(), z.number().int()]),
  reason: z.string().optional(),
});

/** Parses params or throws -32602 naming the first offending field. */
export function parseParams<T extends z.ZodType>(schema: T, params: unknown, method: string): z.infer<T> {
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `params.${issue.path.join('.')}` : 'params';
  throw new McpError(
    ERROR_CODES.invalidParams,
    `Invalid params for ${method}: ${where}: ${issue?.message ?? 'invalid'}`,
  );
}

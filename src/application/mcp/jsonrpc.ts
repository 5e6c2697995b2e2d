import { z } from 'zod';
import { ERROR_CODES } from '../../domain/protocol/versions.js';

/** JSON-RPC 2.0 wire shapes (2026-07-28 basic/index "Messages"), declared once and parsed with zod. */

/** Request ids are strings or integers and MUST NOT be null. */
export const RequestIdSchema = z.union([z.string(), z.number().int()]);
export type RequestId = z.infer<typeof RequestIdSchema>;

const ParamsSchema = z.record(z.string(), z.unknown());

export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema,
  method: z.string().min(1),
  params: ParamsSchema.optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

export const JsonRpcNotificationSchema = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string().min(1),
  params: ParamsSchema.optional(),
});
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;

/** A response a client sends back (we never send requests, so these are acknowledged and dropped). Classified in message-classification.ts. */
export const JsonRpcClientResponseSchema = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: RequestIdSchema, result: z.unknown() }),
  z.object({ jsonrpc: z.literal('2.0'), id: RequestIdSchema.nullable(), error: z.unknown() }),
]);

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: RequestId; result: Record<string, unknown> }
  | { jsonrpc: '2.0'; id: RequestId | null; error: JsonRpcErrorObject };

export function errorResponse(id: RequestId | null, error: JsonRpcErrorObject): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error };
}

export function parseErrorResponse(): JsonRpcResponse {
  return errorResponse(null, { code: ERROR_CODES.parseError, message: 'Parse error' });
}

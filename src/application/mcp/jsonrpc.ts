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

/** A response a client sends back (we never send requests, so these are acknowledged and dropped). */
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

export type IncomingMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response' }
  | { kind: 'invalid'; id: RequestId | null; reason: string };

/** Classifies one parsed JSON value. Batches (arrays) are invalid: batching was removed in 2025-06-18. */
export function classifyMessage(value: unknown): IncomingMessage {
  if (Array.isArray(value)) return { kind: 'invalid', id: null, reason: 'JSON-RPC batches are not supported' };
  if (typeof value !== 'object' || value === null) return { kind: 'invalid', id: null, reason: 'Message must be a JSON object' };
  const record = value as Record<string, unknown>;
  if ('method' in record) {
    if ('id' in record) {
      const request = JsonRpcRequestSchema.safeParse(record);
      if (request.success) return { kind: 'request', message: request.data };
      return { kind: 'invalid', id: salvageId(record.id), reason: describeIssue(request.error) };
    }
    const notification = JsonRpcNotificationSchema.safeParse(record);
    if (notification.success) return { kind: 'notification', message: notification.data };
    return { kind: 'invalid', id: null, reason: describeIssue(notification.error) };
  }
  if (JsonRpcClientResponseSchema.safeParse(record).success) return { kind: 'response' };
  return { kind: 'invalid', id: salvageId(record.id), reason: 'Message is neither a request, a notification nor a response' };
}

function salvageId(id: unknown): RequestId | null {
  const parsed = RequestIdSchema.safeParse(id);
  return parsed.success ? parsed.data : null;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const where = issue.path.length > 0 ? issue.path.join('.') : 'message';
  return `Invalid request: ${where}: ${issue.message}`;
}

export function errorResponse(id: RequestId | null, error: JsonRpcErrorObject): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error };
}

export function parseErrorResponse(): JsonRpcResponse {
  return errorResponse(null, { code: ERROR_CODES.parseError, message: 'Parse error' });
}

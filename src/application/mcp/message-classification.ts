import type { ProtocolEra } from '../../domain/protocol/versions.js';
import {
  JsonRpcClientResponseSchema,
  JsonRpcNotificationSchema,
  JsonRpcRequestSchema,
  RequestIdSchema,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
} from './jsonrpc.js';
import { hasModernMeta, readProtocolVersion } from './request-meta.js';

/**
 * What a message says about itself, read once at the edge. The HTTP header guard compares it with the headers, the
 * route picks the session by it, the dispatcher serves it; none of them reads the body again.
 */
export interface MessageFacts {
  /** 2026-07-28 basic/versioning: modern `_meta` alone selects the modern era; everything else is legacy. */
  readonly era: ProtocolEra;
  readonly method: string;
  /** `params.name` (tools/call, prompts/get), `params.uri` (resources/read) or `params.taskId` (tasks/*) when it is a string: what `Mcp-Name` mirrors. */
  readonly name: string | undefined;
  /** The request id; null for a notification (or an id that is neither a string nor a number). */
  readonly id: RequestId | null;
  /** The message has an `id` member, so it expects an answer. */
  readonly isRequest: boolean;
  /** `params._meta["io.modelcontextprotocol/protocolVersion"]`, as sent (not necessarily a string). */
  readonly protocolVersion: unknown;
  readonly params: Record<string, unknown> | undefined;
}

export type ClassifiedMessage =
  | (MessageFacts & { readonly kind: 'request'; readonly message: JsonRpcRequest })
  | (MessageFacts & { readonly kind: 'notification'; readonly message: JsonRpcNotification })
  /** A response a client sends back (we never send requests, so these are acknowledged and dropped). */
  | { readonly kind: 'response' }
  /**
   * Not a valid JSON-RPC message: `id` is the one to answer with (salvaged when it is a valid id), `reason` what is
   * wrong. `facts` is there when it still names a method, so transport rules (Accept, MCP headers) apply first.
   */
  | {
      readonly kind: 'invalid';
      readonly id: RequestId | null;
      readonly reason: string;
      readonly facts: MessageFacts | undefined;
    };

/**
 * The body field each name-carrying method mirrors into `Mcp-Name` (2026-07-28 streamable-http, "Standard headers";
 * the tasks extension adds its methods' `taskId`, ext-tasks "Streamable HTTP: routing headers").
 */
const NAME_SOURCES: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = Object.freeze({
  'tools/call': 'name',
  'resources/read': 'uri',
  'prompts/get': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
});

/** True when the method carries a name the transport mirrors into a header (`Mcp-Name`). */
export function carriesName(method: string): boolean {
  return NAME_SOURCES[method] !== undefined;
}

/** Classifies one parsed JSON value, once. Batches (arrays) are invalid: batching was removed in 2025-06-18. */
export function classifyMessage(value: unknown): ClassifiedMessage {
  if (Array.isArray(value))
    return { kind: 'invalid', id: null, reason: 'JSON-RPC batches are not supported', facts: undefined };
  if (typeof value !== 'object' || value === null)
    return { kind: 'invalid', id: null, reason: 'Message must be a JSON object', facts: undefined };
  const record = value as Record<string, unknown>;
  if ('method' in record) {
    const facts = factsOf(record);
    if ('id' in record) {
      const request = JsonRpcRequestSchema.safeParse(record);
      if (request.success && facts) return { ...facts, kind: 'request', message: request.data };
      return { kind: 'invalid', id: salvageId(record.id), reason: describeIssue(request.error), facts };
    }
    const notification = JsonRpcNotificationSchema.safeParse(record);
    if (notification.success && facts) return { ...facts, kind: 'notification', message: notification.data };
    return { kind: 'invalid', id: null, reason: describeIssue(notification.error), facts };
  }
  if (JsonRpcClientResponseSchema.safeParse(record).success) return { kind: 'response' };
  return {
    kind: 'invalid',
    id: salvageId(record.id),
    reason: 'Message is neither a request, a notification nor a response',
    facts: undefined,
  };
}

/** The facts of anything that names a method as a string, valid or not (header rules apply before validity). */
function factsOf(record: Record<string, unknown>): MessageFacts | undefined {
  if (typeof record.method !== 'string') return undefined;
  const params =
    typeof record.params === 'object' && record.params !== null && !Array.isArray(record.params)
      ? (record.params as Record<string, unknown>)
      : undefined;
  const nameField = NAME_SOURCES[record.method];
  const name = nameField === undefined ? undefined : params?.[nameField];
  return {
    era: hasModernMeta(params) ? 'modern' : 'legacy',
    method: record.method,
    name: typeof name === 'string' ? name : undefined,
    id: typeof record.id === 'string' || typeof record.id === 'number' ? record.id : null,
    isRequest: 'id' in record,
    protocolVersion: readProtocolVersion(params),
    params,
  };
}

function salvageId(id: unknown): RequestId | null {
  const parsed = RequestIdSchema.safeParse(id);
  return parsed.success ? parsed.data : null;
}

function describeIssue(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } | undefined): string {
  const issue = error?.issues[0];
  if (!issue) return 'Invalid request';
  const where = issue.path.length > 0 ? issue.path.join('.') : 'message';
  return `Invalid request: ${where}: ${issue.message}`;
}

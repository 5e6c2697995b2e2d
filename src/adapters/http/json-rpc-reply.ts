import type { Response } from 'express';
import { errorResponse, type JsonRpcErrorObject, type RequestId } from '../../application/mcp/jsonrpc.js';
import { refusalJsonRpcCode, type TransportRefusalCode } from '../../application/mcp/transport-refusals.js';
import { REFUSAL_STATUS } from './http-statuses.js';

/**
 * Every rejection this adapter makes is JSON-RPC shaped, so a client sees one error format whether the transport
 * (status, auth, origin, size) or the protocol refused it. `id` is null when the request's id is unknown.
 */
export function sendJsonRpcError(
  res: Response,
  status: number,
  error: JsonRpcErrorObject,
  id: RequestId | null = null,
): void {
  res.status(status).json(errorResponse(id, error));
}

/**
 * A refusal of the transport: its HTTP status (http-statuses.ts) and its JSON-RPC code (`jsonRpcCode` when the
 * message's era codec answers otherwise, see era-codec.ts). The message says what to fix.
 */
export function refuse(
  res: Response,
  code: TransportRefusalCode,
  message: string,
  id: RequestId | null = null,
  jsonRpcCode = refusalJsonRpcCode(code),
): void {
  sendJsonRpcError(res, REFUSAL_STATUS[code], { code: jsonRpcCode, message }, id);
}

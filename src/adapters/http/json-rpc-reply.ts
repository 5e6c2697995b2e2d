import type { Response } from 'express';
import { errorResponse, type JsonRpcErrorObject, type RequestId } from '../../application/mcp/jsonrpc.js';

/**
 * Every rejection this adapter makes is JSON-RPC shaped, so a client sees one error format whether the transport
 * (status, auth, origin, size) or the protocol refused it. `id` is null when the request's id is unknown.
 */
export function sendJsonRpcError(res: Response, status: number, error: JsonRpcErrorObject, id: RequestId | null = null): void {
  res.status(status).json(errorResponse(id, error));
}

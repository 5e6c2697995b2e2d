import type { Response } from 'express';
import { errorResponse, type JsonRpcErrorObject, type RequestId } from '../../application/mcp/jsonrpc.js';
import { transportRefusalWire, type TransportRefusalCode } from '../../domain/error-catalogue.js';
import type { ProtocolEra } from '../../domain/protocol/versions.js';

/**
 * Every rejection this adapter makes is JSON-RPC shaped, so a client sees one error format whether the transport
 * (status, auth, origin, size) or the protocol refused it. `id` is null when the request's id is unknown.
 */
export function sendJsonRpcError(res: Response, status: number, error: JsonRpcErrorObject, id: RequestId | null = null): void {
  res.status(status).json(errorResponse(id, error));
}

/**
 * A refusal of the transport, in the wire form the error catalogue gives its code (status and JSON-RPC code, the
 * legacy code for a legacy message where the two differ). The message says what to fix.
 */
export function refuse(res: Response, code: TransportRefusalCode, message: string, id: RequestId | null = null, era: ProtocolEra = 'modern'): void {
  const wire = transportRefusalWire(code, era);
  sendJsonRpcError(res, wire.status, { code: wire.jsonRpcCode, message }, id);
}

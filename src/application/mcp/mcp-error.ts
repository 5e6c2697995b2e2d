import type { JsonRpcErrorObject } from './jsonrpc.js';

/** A protocol-level failure that becomes a JSON-RPC error object (the code is one of `ERROR_CODES`). */
export class McpError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'McpError';
  }

  toJsonRpc(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

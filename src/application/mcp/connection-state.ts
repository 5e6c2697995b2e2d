import type { RequestId } from './jsonrpc.js';

/**
 * Legacy (2025-11-25) handshake state. Scoped to the stdio process, or to one HTTP `Mcp-Session-Id`.
 * Modern requests never read or write it (2026-07-28 basic/index: no connection state).
 */
export class LegacyHandshake {
  protocolVersion: string | undefined;
  initialized = false;
  clientInfo: { name: string; version: string } | undefined;

  get started(): boolean {
    return this.protocolVersion !== undefined;
  }
}

/** Requests in flight on one stdio connection, so `notifications/cancelled` can abort them. */
export class InFlightRequests {
  private readonly controllers = new Map<RequestId, AbortController>();

  begin(id: RequestId): AbortController {
    const controller = new AbortController();
    this.controllers.set(id, controller);
    return controller;
  }

  end(id: RequestId): void {
    this.controllers.delete(id);
  }

  /** Unknown or completed ids are ignored (2026-07-28 patterns/cancellation). */
  cancel(id: RequestId, reason: string): void {
    this.controllers.get(id)?.abort(new Error(reason));
  }

  cancelAll(reason: string): void {
    for (const controller of this.controllers.values()) controller.abort(new Error(reason));
  }

  get size(): number {
    return this.controllers.size;
  }
}

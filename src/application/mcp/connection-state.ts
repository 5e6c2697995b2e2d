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

/**
 * Requests in flight on one stdio connection (or one legacy HTTP session), so `notifications/cancelled` can abort
 * them. It also remembers which ones the client cancelled: those get no response (see `end`).
 */
export class InFlightRequests {
  private readonly controllers = new Map<RequestId, AbortController>();
  private readonly cancelledByClient = new Set<RequestId>();

  begin(id: RequestId): AbortController {
    const controller = new AbortController();
    this.controllers.set(id, controller);
    return controller;
  }

  /** Stops tracking a finished request. True when the client cancelled it: then no response may be sent. */
  end(id: RequestId): boolean {
    this.controllers.delete(id);
    return this.cancelledByClient.delete(id);
  }

  /** The client's `notifications/cancelled`. Unknown or completed ids are ignored (2026-07-28 patterns/cancellation). */
  cancel(id: RequestId, reason: string): void {
    const controller = this.controllers.get(id);
    if (controller === undefined) return;
    this.cancelledByClient.add(id);
    controller.abort(new Error(reason));
  }

  /** The server ends the connection or session: work stops, and answers still go out where they can. */
  cancelAll(reason: string): void {
    for (const controller of this.controllers.values()) controller.abort(new Error(reason));
  }

  get size(): number {
    return this.controllers.size;
  }
}

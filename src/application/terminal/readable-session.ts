import type { SessionRegistry } from '../sessions/session-registry.js';
import type { SessionLedger, SessionLedgers } from './session-ledger.js';

/**
 * For reads (terminal_read, terminal_receipt): the ledger of the live session, or the retained ledger of a one-shot
 * session that ended when its command finished. Anything else is the registry's error (expired, evicted, unknown).
 */
export function readableLedger(registry: SessionRegistry, ledgers: SessionLedgers, sessionId: string): SessionLedger {
  return ledgers.findRetained(sessionId) ?? ledgers.of(registry.get(sessionId));
}

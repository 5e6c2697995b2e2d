import type { Container } from 'inversify';
import type { Logger } from '../application/logging/logger.js';
import type { Clock } from '../application/terminal/clock.js';
import type { CommandConfinement } from '../domain/execution/command-confinement.js';
import type { ExecutionSessionFactory } from '../domain/execution/execution-session.js';
import type { PathInspector } from '../domain/policy/path-inspector.js';
import type { PolicyEngine } from '../domain/policy/policy-engine.js';
import type { ProtocolNegotiator } from '../domain/protocol/protocol-negotiator.js';
import type { ReceiptAuditLog } from '../domain/terminal/receipt-audit-log.js';
import type { ReceiptSigner } from '../domain/terminal/receipt-signer.js';
import type { WorkspaceFS } from '../domain/workspace/workspace-fs.js';
import type { Token } from './token.js';
import { TYPES } from './types.js';

/**
 * The ports a host application may replace (docs/embedding.md), by name: everything else is the server's own wiring.
 * Each is type-checked against its port, and bound before anything is resolved, so every use case gets the host's.
 */
export interface TermMcpPorts {
  /** Judges every command line (allow / deny / needs approval). */
  readonly policyEngine?: PolicyEngine;
  /** Path facts the default policy engine judges words with. */
  readonly pathInspector?: PathInspector;
  /** The workspace's files: resources, plans' working directories. */
  readonly workspaceFs?: WorkspaceFS;
  /** Starts commands; the default spawns child processes through `commandConfinement`. */
  readonly executionSessionFactory?: ExecutionSessionFactory;
  /** What every command runs inside; plans and receipts report its `summary()`. */
  readonly commandConfinement?: CommandConfinement;
  readonly protocolNegotiator?: ProtocolNegotiator;
  readonly logger?: Logger;
  readonly receiptSigner?: ReceiptSigner;
  readonly receiptAuditLog?: ReceiptAuditLog;
  /** Milliseconds since the epoch: plan and approval times, approval expiry. */
  readonly clock?: Clock;
}

type PortTokens = {
  readonly [Name in keyof TermMcpPorts]-?: Token<NonNullable<TermMcpPorts[Name]>> | Token<TermMcpPorts[Name]>;
};

const PORT_TOKENS: PortTokens = Object.freeze({
  policyEngine: TYPES.PolicyEngine,
  pathInspector: TYPES.PathInspector,
  workspaceFs: TYPES.WorkspaceFS,
  executionSessionFactory: TYPES.ExecutionSessionFactory,
  commandConfinement: TYPES.CommandConfinement,
  protocolNegotiator: TYPES.ProtocolNegotiator,
  logger: TYPES.Logger,
  receiptSigner: TYPES.ReceiptSigner,
  receiptAuditLog: TYPES.ReceiptAuditLog,
  clock: TYPES.Clock,
});

/** Rebinds each port the host supplied (after the server's modules are loaded, before anything is resolved). */
export function bindPorts(container: Container, ports: TermMcpPorts): void {
  for (const name of Object.keys(PORT_TOKENS) as (keyof TermMcpPorts)[]) {
    const port = ports[name];
    if (port !== undefined) container.rebind(PORT_TOKENS[name]).toConstantValue(port);
  }
}

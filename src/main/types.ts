/**
 * Service identifiers of the composition root (inversify). A host app rebinds these to supply its own ports; the
 * modules in `src/main/modules/` bind every one of them (see docs/architecture.md#wiring).
 */
export const TYPES = Object.freeze({
  /** The parsed configuration (`loadConfig`): the one input of every module, bound by whoever builds the container. */
  Config: Symbol.for('term-mcp.Config'),
  Logger: Symbol.for('term-mcp.Logger'),
  /** `() => number`, milliseconds since the epoch: plan and approval times, approval expiry. */
  Clock: Symbol.for('term-mcp.Clock'),
  /** `() => string`, unguessable ids of sessions, plans and receipts. */
  NewId: Symbol.for('term-mcp.NewId'),
  /** `() => string`, approval ids (the operator route acts on them, so they must not be guessable). */
  NewApprovalId: Symbol.for('term-mcp.NewApprovalId'),
  /** The server's environment as read at start-up; commands inherit only its allowlisted variables. */
  ServerEnvironment: Symbol.for('term-mcp.ServerEnvironment'),
  ServerInfo: Symbol.for('term-mcp.ServerInfo'),
  ProtocolNegotiator: Symbol.for('term-mcp.ProtocolNegotiator'),
  PolicyEngine: Symbol.for('term-mcp.PolicyEngine'),
  PathInspector: Symbol.for('term-mcp.PathInspector'),
  WorkspaceFS: Symbol.for('term-mcp.WorkspaceFS'),
  CommandConfinement: Symbol.for('term-mcp.CommandConfinement'),
  /** The filtering proxy with ALLOW_NETWORK and the sandbox on; `undefined` otherwise. */
  FilteringProxy: Symbol.for('term-mcp.FilteringProxy'),
  ExecutionSessionFactory: Symbol.for('term-mcp.ExecutionSessionFactory'),
  SessionRegistry: Symbol.for('term-mcp.SessionRegistry'),
  Tools: Symbol.for('term-mcp.Tools'),
  ToolCatalog: Symbol.for('term-mcp.ToolCatalog'),
  ResourceProvider: Symbol.for('term-mcp.ResourceProvider'),
  PromptProvider: Symbol.for('term-mcp.PromptProvider'),
  Dispatcher: Symbol.for('term-mcp.Dispatcher'),
  // Terminal application layer (src/main/modules/terminal-module.ts, receipts-module.ts)
  PolicySettings: Symbol.for('term-mcp.PolicySettings'),
  TerminalSettings: Symbol.for('term-mcp.TerminalSettings'),
  SecretRedactor: Symbol.for('term-mcp.SecretRedactor'),
  ReceiptSigner: Symbol.for('term-mcp.ReceiptSigner'),
  /** The JSONL audit trail with AUDIT_LOG; `undefined` otherwise. */
  ReceiptAuditLog: Symbol.for('term-mcp.ReceiptAuditLog'),
  ReceiptRecorder: Symbol.for('term-mcp.ReceiptRecorder'),
  SessionLedgers: Symbol.for('term-mcp.SessionLedgers'),
  ApprovalService: Symbol.for('term-mcp.ApprovalService'),
  PlanService: Symbol.for('term-mcp.PlanService'),
  ExecutionService: Symbol.for('term-mcp.ExecutionService'),
  TerminalSessions: Symbol.for('term-mcp.TerminalSessions'),
  SessionOverview: Symbol.for('term-mcp.SessionOverview'),
  CommandLocator: Symbol.for('term-mcp.CommandLocator'),
  CommandSignals: Symbol.for('term-mcp.CommandSignals'),
  CommandReader: Symbol.for('term-mcp.CommandReader'),
  CommandInput: Symbol.for('term-mcp.CommandInput'),
  TerminalToolkit: Symbol.for('term-mcp.TerminalToolkit'),
  // HTTP only (src/main/modules/web-module.ts, receipt-http-module.ts), loaded by the HTTP app on first use
  WebMounts: Symbol.for('term-mcp.WebMounts'),
  ReceiptHttpMounts: Symbol.for('term-mcp.ReceiptHttpMounts'),
});

/** A fresh identifier per call (`TYPES.NewId`, `TYPES.NewApprovalId`). */
export type IdGenerator = () => string;
/** What `TYPES.ServerEnvironment` holds. */
export type ServerEnvironment = Readonly<Record<string, string | undefined>>;

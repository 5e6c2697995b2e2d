import type { Logger } from '../application/logging/logger.js';
import type { PromptProvider, ResourceProvider } from '../application/mcp/capability-ports.js';
import type { McpDispatcher } from '../application/mcp/dispatcher.js';
import type { ServerInfo } from '../application/mcp/server-identity.js';
import type { PolicySettings } from '../application/policy/policy-settings.js';
import type { ReceiptInspection } from '../application/receipts/receipt-inspection.js';
import type { ApprovalService } from '../application/terminal/approval-service.js';
import type { Clock } from '../application/terminal/clock.js';
import type { OutputArchive } from '../application/terminal/output-archive.js';
import type { SpoolSettings } from '../adapters/process/stream-spool.js';
import type { CommandInput } from '../application/terminal/command-input.js';
import type { CommandLocator } from '../application/terminal/command-locator.js';
import type { CommandReader } from '../application/terminal/command-reader.js';
import type { CommandSignals } from '../application/terminal/command-signals.js';
import type { ExecutionService } from '../application/terminal/execution-service.js';
import type { PlanService } from '../application/terminal/plan-service.js';
import type { ReceiptRecorder } from '../application/terminal/receipt-recorder.js';
import type { SecretRedactor } from '../application/terminal/secret-redactor.js';
import type { SessionOverview } from '../application/terminal/session-overview.js';
import type { TerminalSessionStore } from '../application/terminal/terminal-session-store.js';
import type { TerminalSettings } from '../application/terminal/terminal-settings.js';
import type { TerminalToolkit } from '../application/terminal/terminal-toolkit.js';
import type { ToolCatalog } from '../application/tools/tool-catalog.js';
import type { ToolDefinition } from '../application/tools/tool-definition.js';
import type { FilteringProxy } from '../adapters/sandbox/filtering-proxy.js';
import type { ChatModel } from '../domain/chat/chat-model.js';
import type { CommandConfinement } from '../domain/execution/command-confinement.js';
import type { ExecutionSessionFactory } from '../domain/execution/execution-session.js';
import type { PathInspector } from '../domain/policy/path-inspector.js';
import type { PolicyEngine } from '../domain/policy/policy-engine.js';
import type { ProtocolNegotiator } from '../domain/protocol/protocol-negotiator.js';
import type { ReceiptAuditLog } from '../domain/terminal/receipt-audit-log.js';
import type { ReceiptSigner } from '../domain/terminal/receipt-signer.js';
import type { TerminalEvents } from '../domain/terminal/terminal-events.js';
import type { WorkspaceFS } from '../domain/workspace/workspace-fs.js';
import type { Config } from './config.js';
import type { ReceiptHttpMounts } from './receipt-http-mounts.js';
import { token } from './token.js';
import type { WebMounts } from './web-mounts.js';

/**
 * Service identifiers of the composition root (inversify), each typed with what it is bound to (`Token<T>`): a module
 * whose factory takes its dependencies in another order than its token list does not compile. The modules in
 * `src/main/modules/` bind every one of them (see docs/architecture.md#wiring); a host replaces ports through
 * `createTermMcp({ ports })`.
 */
export const TYPES = Object.freeze({
  /** The parsed configuration (`loadConfig`): the one input of every module, bound by whoever builds the container. */
  Config: token<Config>('Config'),
  Logger: token<Logger>('Logger'),
  /** `() => number`, milliseconds since the epoch: plan and approval times, approval expiry. */
  Clock: token<Clock>('Clock'),
  /** `() => string`, unguessable ids of sessions, plans and receipts. */
  NewId: token<IdGenerator>('NewId'),
  /** `() => string`, approval ids (the operator route acts on them, so they must not be guessable). */
  NewApprovalId: token<IdGenerator>('NewApprovalId'),
  /** The server's environment as read at start-up; commands inherit only its allowlisted variables. */
  ServerEnvironment: token<ServerEnvironment>('ServerEnvironment'),
  ServerInfo: token<ServerInfo>('ServerInfo'),
  ProtocolNegotiator: token<ProtocolNegotiator>('ProtocolNegotiator'),
  PolicyEngine: token<PolicyEngine>('PolicyEngine'),
  PathInspector: token<PathInspector>('PathInspector'),
  WorkspaceFS: token<WorkspaceFS>('WorkspaceFS'),
  CommandConfinement: token<CommandConfinement>('CommandConfinement'),
  /** The filtering proxy with ALLOW_NETWORK and the sandbox on; `undefined` otherwise. */
  FilteringProxy: token<FilteringProxy | undefined>('FilteringProxy'),
  ExecutionSessionFactory: token<ExecutionSessionFactory>('ExecutionSessionFactory'),
  Tools: token<ToolDefinition[]>('Tools'),
  ToolCatalog: token<ToolCatalog>('ToolCatalog'),
  ResourceProvider: token<ResourceProvider>('ResourceProvider'),
  PromptProvider: token<PromptProvider>('PromptProvider'),
  Dispatcher: token<McpDispatcher>('Dispatcher'),
  // Terminal application layer (src/main/modules/terminal-module.ts, receipts-module.ts)
  PolicySettings: token<PolicySettings>('PolicySettings'),
  TerminalSettings: token<TerminalSettings>('TerminalSettings'),
  SecretRedactor: token<SecretRedactor>('SecretRedactor'),
  ReceiptSigner: token<ReceiptSigner>('ReceiptSigner'),
  /** The JSONL audit trail with AUDIT_LOG; `undefined` otherwise. */
  ReceiptAuditLog: token<ReceiptAuditLog | undefined>('ReceiptAuditLog'),
  ReceiptRecorder: token<ReceiptRecorder>('ReceiptRecorder'),
  ApprovalService: token<ApprovalService>('ApprovalService'),
  PlanService: token<PlanService>('PlanService'),
  ExecutionService: token<ExecutionService>('ExecutionService'),
  /** The one store of terminal sessions (the aggregates): caps, eviction, idle expiry, one-shot retention. */
  TerminalSessionStore: token<TerminalSessionStore>('TerminalSessionStore'),
  /** The plan and command events of terminal sessions (the store feeds them; the UI's event stream reads them). */
  TerminalEvents: token<TerminalEvents>('TerminalEvents'),
  SessionOverview: token<SessionOverview>('SessionOverview'),
  CommandLocator: token<CommandLocator>('CommandLocator'),
  CommandSignals: token<CommandSignals>('CommandSignals'),
  CommandReader: token<CommandReader>('CommandReader'),
  CommandInput: token<CommandInput>('CommandInput'),
  TerminalToolkit: token<TerminalToolkit>('TerminalToolkit'),
  // Issue 24 (src/main/modules/output-module.ts): the output spool and the archive of finished commands' output
  OutputSpool: token<OutputSpool>('OutputSpool'),
  OutputArchive: token<OutputArchive>('OutputArchive'),
  // HTTP only (src/main/modules/web-module.ts, receipt-http-module.ts), loaded by the HTTP app on first use
  WebMounts: token<WebMounts>('WebMounts'),
  /** HTTP only (web-module.ts): the planning chat's model. */
  ChatModel: token<ChatModel>('ChatModel'),
  ReceiptHttpMounts: token<ReceiptHttpMounts>('ReceiptHttpMounts'),
  /** HTTP only (receipt-http-module.ts): receipt checks with the server's own signer. */
  ReceiptInspection: token<ReceiptInspection>('ReceiptInspection'),
});

/** A fresh identifier per call (`TYPES.NewId`, `TYPES.NewApprovalId`). */
export type IdGenerator = () => string;
/** Where commands spool their whole output; `settings` undefined: only the capped capture is kept. */
export interface OutputSpool {
  readonly settings: SpoolSettings | undefined;
}
/** What `TYPES.ServerEnvironment` holds. */
export type ServerEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * term-mcp as a library. `createTermMcp` is the entry point; the ports, their default implementations and the
 * service identifiers (`TYPES`) let a host app supply its own `PolicyEngine`, `WorkspaceFS`, `Logger`, ...
 * See docs/embedding.md.
 */
export { createTermMcp, type TermMcp, type TermMcpOptions } from './main/term-mcp.js';
export type { TermMcpPorts } from './main/ports.js';
export type { Token } from './main/token.js';
export { startHttpServer, type HttpServerHandle, type StartHttpOptions } from './main/run-http.js';
export { loadConfig, type Config, type ConfigFlags } from './main/config.js';
export { buildContainer, type ContainerOverrides } from './main/container.js';
export type { HttpAppHooks } from './main/http-app.js';
export { TYPES } from './main/types.js';
export { SERVER_INFO, TERM_MCP_VERSION } from './main/server-info.js';

// Ports and their value types
export type { PolicyEngine } from './domain/policy/policy-engine.js';
export type {
  PolicyDecision,
  PolicyRequest,
  PolicyVerdict,
  PolicyMode,
  RiskLevel,
  LaunchForm,
  PartDecision,
} from './domain/policy/policy-types.js';
export type { PathInspector } from './domain/policy/path-inspector.js';
export type {
  ExecutionSession,
  ExecutionSessionFactory,
  RunningCommand,
} from './domain/execution/execution-session.js';
export type {
  CommandLaunch,
  CommandOutcome,
  CommandStatus,
  ExecutionEvent,
  OutputChunk,
  OutputStream,
} from './domain/execution/execution-types.js';
export type { WorkspaceFS, WorkspaceEntry, WorkspaceText } from './domain/workspace/workspace-fs.js';
export type { ProtocolNegotiator, VersionClass } from './domain/protocol/protocol-negotiator.js';
export type { Logger } from './application/logging/logger.js';
export type { Clock } from './application/terminal/clock.js';
export type {
  CommandConfinement,
  ConfinedLaunch,
  ConfinementSummary,
  ConfinementReadiness,
  LaunchRequest,
} from './domain/execution/command-confinement.js';
export type { ReceiptSigner } from './domain/terminal/receipt-signer.js';
export type { ReceiptAuditLog } from './domain/terminal/receipt-audit-log.js';

// Protocol constants and errors
export {
  ERROR_CODES,
  LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  META,
  MODERN_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type ProtocolEra,
} from './domain/protocol/versions.js';
export { DomainError, InvalidArgument, ConfigurationError, InvalidCursor } from './domain/errors.js';

// Default implementations a host may wrap or reuse
export { DefaultPolicyEngine } from './application/policy/default-policy-engine.js';
export { DEFAULT_POLICY_SETTINGS, parsePolicyDocument } from './application/policy/policy-document.js';
export { NodePathInspector } from './adapters/policy/node-path-inspector.js';
export { NodeWorkspaceFS } from './adapters/fs/node-workspace-fs.js';
export { ChildProcessSessionFactory } from './adapters/process/child-process-session-factory.js';
export { McpDispatcher, type DispatchContext } from './application/mcp/dispatcher.js';
export { LegacyHandshake } from './application/mcp/connection-state.js';
export { StderrLogger } from './adapters/logging/stderr-logger.js';

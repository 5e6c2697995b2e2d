import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import type { Container } from 'inversify';
import type { Logger } from '../application/logging/logger.js';
import { DefaultPolicyEngine } from '../application/policy/default-policy-engine.js';
import { DEFAULT_POLICY_SETTINGS, parsePolicyDocument } from '../application/policy/policy-document.js';
import type { PolicySettings } from '../application/policy/policy-settings.js';
import { SessionRegistry } from '../application/sessions/session-registry.js';
import { ApprovalService } from '../application/terminal/approval-service.js';
import { CommandInput } from '../application/terminal/command-input.js';
import { CommandLocator } from '../application/terminal/command-locator.js';
import { CommandReader } from '../application/terminal/command-reader.js';
import { CommandSignals } from '../application/terminal/command-signals.js';
import { TerminalSessions } from '../application/terminal/terminal-sessions.js';
import { ExecutionService } from '../application/terminal/execution-service.js';
import { PlanService } from '../application/terminal/plan-service.js';
import { ReceiptRecorder } from '../application/terminal/receipt-recorder.js';
import { SecretRedactor } from '../application/terminal/secret-redactor.js';
import { SessionLedgers } from '../application/terminal/session-ledger.js';
import { SessionOverview } from '../application/terminal/session-overview.js';
import type { TerminalSettings } from '../application/terminal/terminal-settings.js';
import { terminalTools } from '../application/terminal/terminal-tools.js';
import type { ToolDefinition } from '../application/tools/tool-definition.js';
import { NodePathInspector } from '../adapters/policy/node-path-inspector.js';
import { ChildProcessSessionFactory } from '../adapters/process/child-process-session-factory.js';
import type { FilteringProxy } from '../adapters/sandbox/filtering-proxy.js';
import { HmacReceiptSigner } from '../adapters/receipts/hmac-receipt-signer.js';
import { JsonlReceiptAuditLog } from '../adapters/receipts/jsonl-receipt-audit-log.js';
import { ConfigurationError } from '../domain/errors.js';
import type { CommandConfinement } from '../domain/execution/command-confinement.js';
import type { ExecutionSessionFactory } from '../domain/execution/execution-session.js';
import type { PathInspector } from '../domain/policy/path-inspector.js';
import type { PolicyEngine } from '../domain/policy/policy-engine.js';
import { PolicyFileInvalid } from '../domain/policy/policy-errors.js';
import type { ReceiptAuditLog } from '../domain/terminal/receipt-audit-log.js';
import type { ReceiptSigner } from '../domain/terminal/receipt-signer.js';
import type { WorkspaceFS } from '../domain/workspace/workspace-fs.js';
import type { Config } from './config.js';
import { buildConfinement } from './sandbox-bindings.js';
import { TYPES } from './types.js';

/**
 * Binds the terminal domain: policy, execution sessions, plans, approvals, receipts and the terminal tools.
 * The policy file is read here, so a bad TERM_MCP_POLICY fails start-up instead of the first tool call.
 */
export function bindTerminal(container: Container, config: Config): void {
  const policySettings = loadPolicySettings(config);
  const { confinement, proxy } = buildConfinement(config, policySettings, (decision) => {
    // Refusals are what an operator looks for (a registry missing from the list, or a command trying elsewhere).
    if (!decision.allowed) container.get<Logger>(TYPES.Logger).warn('network proxy refused a destination', { ...decision });
  });
  container.bind<CommandConfinement>(TYPES.CommandConfinement).toConstantValue(confinement);
  if (proxy !== undefined) container.bind<FilteringProxy>(TYPES.FilteringProxy).toConstantValue(proxy);
  const settings: TerminalSettings = Object.freeze({
    mode: policySettings.mode,
    approvalChannel: config.approvalChannel,
    defaultTimeoutSeconds: config.commandTimeoutSeconds,
    maxTimeoutSeconds: config.maxCommandTimeoutSeconds,
    maxOutputBytes: config.maxOutputBytes,
    maxProcessesPerSession: config.maxProcessesPerSession,
    approvalTtlSeconds: config.approvalTtlSeconds,
    confinement: confinement.summary(),
  });
  container.bind<PolicySettings>(TYPES.PolicySettings).toConstantValue(policySettings);
  container.bind<TerminalSettings>(TYPES.TerminalSettings).toConstantValue(settings);

  container.bind<PathInspector>(TYPES.PathInspector).toDynamicValue(() => new NodePathInspector(config.workspaceRoot));
  container
    .bind<PolicyEngine>(TYPES.PolicyEngine)
    .toDynamicValue((ctx) => new DefaultPolicyEngine(ctx.get<PathInspector>(TYPES.PathInspector), ctx.get<PolicySettings>(TYPES.PolicySettings), config.maxCommandLength));
  container
    .bind<ExecutionSessionFactory>(TYPES.ExecutionSessionFactory)
    .toDynamicValue(
      (ctx) =>
        new ChildProcessSessionFactory({
          maxProcessesPerSession: config.maxProcessesPerSession,
          confinement: ctx.get<CommandConfinement>(TYPES.CommandConfinement),
          // The composition root is the only reader of process.env; commands inherit only its locale and terminal.
          serverEnv: process.env,
        }),
    );
  container.bind<SessionRegistry>(TYPES.SessionRegistry).toDynamicValue((ctx) => {
    const registry = new SessionRegistry({
      factory: ctx.get<ExecutionSessionFactory>(TYPES.ExecutionSessionFactory),
      maxSessions: config.maxSessions,
      maxSessionsPerOwner: config.maxSessionsPerPrincipal,
      idleTimeoutMs: config.sessionTimeoutSeconds * 1000,
      newId: randomUUID,
    });
    // Idle sessions also expire while nobody calls (the registry sweeps lazily on use too); the timer is unref'd.
    registry.startSweeper(Math.min(60_000, (config.sessionTimeoutSeconds * 1000) / 4));
    return registry;
  });

  container
    .bind<SecretRedactor>(TYPES.SecretRedactor)
    .toDynamicValue(() => new SecretRedactor([config.token, config.operatorToken, config.receiptKey, config.jwtSecret, config.deepseekApiKey]));
  // Without a configured key receipts are signed with a random per-process key: verifiable only by this process.
  container.bind<ReceiptSigner>(TYPES.ReceiptSigner).toDynamicValue(() => new HmacReceiptSigner(config.receiptKey ?? randomBytes(32)));
  if (config.auditLog !== undefined) {
    const auditLogPath = path.resolve(config.auditLog);
    container.bind<ReceiptAuditLog>(TYPES.ReceiptAuditLog).toDynamicValue(() => new JsonlReceiptAuditLog(auditLogPath));
  }
  container.bind<ReceiptRecorder>(TYPES.ReceiptRecorder).toDynamicValue(
    (ctx) =>
      new ReceiptRecorder({
        signer: ctx.get<ReceiptSigner>(TYPES.ReceiptSigner),
        redactor: ctx.get<SecretRedactor>(TYPES.SecretRedactor),
        auditLog: ctx.get<ReceiptAuditLog>(TYPES.ReceiptAuditLog, { optional: true }),
        logger: ctx.get<Logger>(TYPES.Logger),
        signalNumber,
        newReceiptId: randomUUID,
      }),
  );

  // Ended one-shot sessions stay readable as long as an idle session would have lived.
  container
    .bind<SessionLedgers>(TYPES.SessionLedgers)
    .toDynamicValue(() => new SessionLedgers({ retentionMs: config.sessionTimeoutSeconds * 1000 }));
  container
    .bind<TerminalSessions>(TYPES.TerminalSessions)
    .toDynamicValue((ctx) => new TerminalSessions(ctx.get<SessionRegistry>(TYPES.SessionRegistry), ctx.get<SessionLedgers>(TYPES.SessionLedgers)));
  container.bind<ApprovalService>(TYPES.ApprovalService).toDynamicValue(
    (ctx) =>
      new ApprovalService({
        sessions: ctx.get<TerminalSessions>(TYPES.TerminalSessions),
        channel: settings.approvalChannel,
        ttlSeconds: settings.approvalTtlSeconds,
        now: Date.now,
        newApprovalId: mintApprovalId,
      }),
  );
  container.bind<PlanService>(TYPES.PlanService).toDynamicValue(
    (ctx) =>
      new PlanService({
        sessions: ctx.get<TerminalSessions>(TYPES.TerminalSessions),
        policy: ctx.get<PolicyEngine>(TYPES.PolicyEngine),
        workspace: ctx.get<WorkspaceFS>(TYPES.WorkspaceFS),
        approvals: ctx.get<ApprovalService>(TYPES.ApprovalService),
        settings,
        now: Date.now,
        newPlanId: randomUUID,
      }),
  );
  container.bind<ExecutionService>(TYPES.ExecutionService).toDynamicValue(
    (ctx) =>
      new ExecutionService({
        sessions: ctx.get<TerminalSessions>(TYPES.TerminalSessions),
        policy: ctx.get<PolicyEngine>(TYPES.PolicyEngine),
        workspace: ctx.get<WorkspaceFS>(TYPES.WorkspaceFS),
        plans: ctx.get<PlanService>(TYPES.PlanService),
        approvals: ctx.get<ApprovalService>(TYPES.ApprovalService),
        recorder: ctx.get<ReceiptRecorder>(TYPES.ReceiptRecorder),
      }),
  );
  container.bind<SessionOverview>(TYPES.SessionOverview).toDynamicValue(
    (ctx) =>
      new SessionOverview({
        registry: ctx.get<SessionRegistry>(TYPES.SessionRegistry),
        ledgers: ctx.get<SessionLedgers>(TYPES.SessionLedgers),
        redactor: ctx.get<SecretRedactor>(TYPES.SecretRedactor),
        pageSize: config.pageSize,
      }),
  );

  container.bind<ToolDefinition[]>(TYPES.Tools).toDynamicValue((ctx) => {
    const locator = new CommandLocator(ctx.get<TerminalSessions>(TYPES.TerminalSessions));
    return terminalTools({
      settings,
      plans: ctx.get<PlanService>(TYPES.PlanService),
      approvals: ctx.get<ApprovalService>(TYPES.ApprovalService),
      execution: ctx.get<ExecutionService>(TYPES.ExecutionService),
      signals: new CommandSignals(locator),
      reader: new CommandReader(locator, ctx.get<SecretRedactor>(TYPES.SecretRedactor)),
      stdin: new CommandInput(locator),
      sessions: ctx.get<SessionOverview>(TYPES.SessionOverview),
      signalNumber,
    });
  });
}

/** Kills every running command of every session (stdin EOF, SIGTERM, HTTP shutdown), then stops the network proxy. */
export async function shutdownTerminal(container: Container): Promise<void> {
  await container.get<SessionRegistry>(TYPES.SessionRegistry).closeAll();
  if (container.isBound(TYPES.FilteringProxy)) await container.get<FilteringProxy>(TYPES.FilteringProxy).close();
}

/**
 * The policy settings: the defaults, then the policy file (TERM_MCP_POLICY), then APPROVAL_MODE / ALLOW_NETWORK
 * when they are set explicitly (the environment and flags win over the file).
 */
export function loadPolicySettings(config: Config): PolicySettings {
  const fromFile = config.policyFile === undefined ? DEFAULT_POLICY_SETTINGS : readPolicyFile(config.policyFile);
  const mode = config.policyMode ?? fromFile.mode;
  if (mode === 'sandboxed' && !config.sandboxEnabled) {
    // Fail closed: sandboxed mode allows what only the sandbox makes safe; without it, it must not start at all.
    const source = config.policyMode === undefined ? 'TERM_MCP_POLICY' : 'APPROVAL_MODE';
    throw new ConfigurationError(
      `${source}: mode sandboxed needs the bubblewrap sandbox, but TERM_MCP_SANDBOX is off; turn the sandbox on or choose another mode (confirm asks before writes)`,
      { setting: source },
    );
  }
  const serverFiles = [config.policyFile, config.auditLog].flatMap((file) => (file === undefined ? [] : [realPath(path.resolve(file))]));
  return Object.freeze({
    ...fromFile,
    mode,
    allowNetwork: config.allowNetwork ?? fromFile.allowNetwork,
    serverFiles: Object.freeze(serverFiles),
  });
}

/** The path with symlinks resolved, as the policy's path inspector resolves the words it compares with it. */
function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    // Not created yet (an audit log before the first receipt): its parent may still be a symlink.
    try {
      return path.join(realpathSync(path.dirname(file)), path.basename(file));
    } catch {
      return file;
    }
  }
}

function readPolicyFile(file: string): PolicySettings {
  const extension = path.extname(file).toLowerCase();
  const format = extension === '.json' ? 'json' : extension === '.yaml' || extension === '.yml' ? 'yaml' : undefined;
  if (format === undefined) {
    throw new ConfigurationError(`TERM_MCP_POLICY: ${file}: the file name must end in .json, .yaml or .yml`, { setting: 'TERM_MCP_POLICY', file });
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new ConfigurationError(`TERM_MCP_POLICY: ${file}: cannot read the policy file (${reason})`, { setting: 'TERM_MCP_POLICY', file });
  }
  try {
    return parsePolicyDocument(text, format);
  } catch (error) {
    if (!(error instanceof PolicyFileInvalid)) throw error;
    throw new ConfigurationError(`TERM_MCP_POLICY: ${file}: ${error.message}`, { setting: 'TERM_MCP_POLICY', file, ...error.details });
  }
}

/** 192 random bits: an approval id is what the operator route acts on, so it must not be guessable. */
function mintApprovalId(): string {
  return `apr_${randomBytes(24).toString('base64url')}`;
}

function signalNumber(name: string): number | null {
  return (osConstants.signals as Record<string, number | undefined>)[name] ?? null;
}

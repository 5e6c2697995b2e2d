import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import type { Container } from 'inversify';
import type { Logger } from '../application/logging/logger.js';
import { DefaultPolicyEngine } from '../application/policy/default-policy-engine.js';
import { DEFAULT_POLICY_SETTINGS, parsePolicyDocument } from '../application/policy/policy-document.js';
import type { PolicySettings } from '../application/policy/policy-settings.js';
import { SessionRegistry } from '../application/sessions/session-registry.js';
import { ApprovalService } from '../application/terminal/approval-service.js';
import { CommandControl } from '../application/terminal/command-control.js';
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
  const confinement = buildConfinement(config, policySettings);
  container.bind<CommandConfinement>(TYPES.CommandConfinement).toConstantValue(confinement);
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
  container.bind<ApprovalService>(TYPES.ApprovalService).toDynamicValue(
    (ctx) =>
      new ApprovalService({
        registry: ctx.get<SessionRegistry>(TYPES.SessionRegistry),
        ledgers: ctx.get<SessionLedgers>(TYPES.SessionLedgers),
        channel: settings.approvalChannel,
        ttlSeconds: settings.approvalTtlSeconds,
        now: Date.now,
        newApprovalId: mintApprovalId,
      }),
  );
  container.bind<PlanService>(TYPES.PlanService).toDynamicValue(
    (ctx) =>
      new PlanService({
        registry: ctx.get<SessionRegistry>(TYPES.SessionRegistry),
        policy: ctx.get<PolicyEngine>(TYPES.PolicyEngine),
        workspace: ctx.get<WorkspaceFS>(TYPES.WorkspaceFS),
        ledgers: ctx.get<SessionLedgers>(TYPES.SessionLedgers),
        approvals: ctx.get<ApprovalService>(TYPES.ApprovalService),
        settings,
        now: Date.now,
        newPlanId: randomUUID,
      }),
  );
  container.bind<ExecutionService>(TYPES.ExecutionService).toDynamicValue(
    (ctx) =>
      new ExecutionService({
        registry: ctx.get<SessionRegistry>(TYPES.SessionRegistry),
        policy: ctx.get<PolicyEngine>(TYPES.PolicyEngine),
        workspace: ctx.get<WorkspaceFS>(TYPES.WorkspaceFS),
        ledgers: ctx.get<SessionLedgers>(TYPES.SessionLedgers),
        plans: ctx.get<PlanService>(TYPES.PlanService),
        approvals: ctx.get<ApprovalService>(TYPES.ApprovalService),
        recorder: ctx.get<ReceiptRecorder>(TYPES.ReceiptRecorder),
      }),
  );
  container.bind<CommandControl>(TYPES.CommandControl).toDynamicValue(
    (ctx) =>
      new CommandControl({
        registry: ctx.get<SessionRegistry>(TYPES.SessionRegistry),
        ledgers: ctx.get<SessionLedgers>(TYPES.SessionLedgers),
        redactor: ctx.get<SecretRedactor>(TYPES.SecretRedactor),
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

  container.bind<ToolDefinition[]>(TYPES.Tools).toDynamicValue((ctx) =>
    terminalTools({
      settings,
      plans: ctx.get<PlanService>(TYPES.PlanService),
      approvals: ctx.get<ApprovalService>(TYPES.ApprovalService),
      execution: ctx.get<ExecutionService>(TYPES.ExecutionService),
      control: ctx.get<CommandControl>(TYPES.CommandControl),
      sessions: ctx.get<SessionOverview>(TYPES.SessionOverview),
      signalNumber,
    }),
  );
}

/** Kills every running command of every session (stdin EOF, SIGTERM, HTTP shutdown). */
export async function shutdownTerminal(container: Container): Promise<void> {
  await container.get<SessionRegistry>(TYPES.SessionRegistry).closeAll();
}

/**
 * The policy settings: the defaults, then the policy file (TERM_MCP_POLICY), then APPROVAL_MODE / ALLOW_NETWORK
 * when they are set explicitly (the environment and flags win over the file).
 */
export function loadPolicySettings(config: Config): PolicySettings {
  const fromFile = config.policyFile === undefined ? DEFAULT_POLICY_SETTINGS : readPolicyFile(config.policyFile);
  return Object.freeze({
    ...fromFile,
    mode: config.policyMode ?? fromFile.mode,
    allowNetwork: config.allowNetwork ?? fromFile.allowNetwork,
  });
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

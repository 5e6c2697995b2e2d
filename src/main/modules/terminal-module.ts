import { typedModule } from '../typed-module.js';
import type { PolicySettings } from '../../application/policy/policy-settings.js';
import { ApprovalService } from '../../application/terminal/approval-service.js';
import { CommandInput } from '../../application/terminal/command-input.js';
import { CommandLocator } from '../../application/terminal/command-locator.js';
import { CommandReader } from '../../application/terminal/command-reader.js';
import { CommandSignals } from '../../application/terminal/command-signals.js';
import { ExecutionService } from '../../application/terminal/execution-service.js';
import { PlanService } from '../../application/terminal/plan-service.js';
import type { ReceiptRecorder } from '../../application/terminal/receipt-recorder.js';
import type { SecretRedactor } from '../../application/terminal/secret-redactor.js';
import { SessionOverview } from '../../application/terminal/session-overview.js';
import { TerminalSessionStore } from '../../application/terminal/terminal-session-store.js';
import type { TerminalSettings } from '../../application/terminal/terminal-settings.js';
import type { OutputArchive } from '../../application/terminal/output-archive.js';
import type { TerminalToolkit } from '../../application/terminal/terminal-toolkit.js';
import { terminalTools } from '../../application/terminal/terminal-tools.js';
import { TerminalScreens } from '../../application/terminal/interactive/terminal-screens.js';
import type { ToolDefinition } from '../../application/tools/tool-definition.js';
import { ChildProcessSessionFactory } from '../../adapters/process/child-process-session-factory.js';
import type { CommandConfinement } from '../../domain/execution/command-confinement.js';
import type { ExecutionSessionFactory } from '../../domain/execution/execution-session.js';
import type { PolicyEngine } from '../../domain/policy/policy-engine.js';
import type { TerminalEvents } from '../../domain/terminal/terminal-events.js';
import type { WorkspaceFS } from '../../domain/workspace/workspace-fs.js';
import type { Config } from '../config.js';
import type { Clock } from '../../application/terminal/clock.js';
import { signalNumber } from '../signal-number.js';
import { TYPES, type IdGenerator, type OutputSpool, type ServerEnvironment } from '../types.js';

/**
 * The terminal: execution sessions (child processes, through the confinement), the one store of terminal sessions
 * and its events, the use cases (plan, approve, execute, signal, read, write, list) and the terminal tools built from
 * them. `shutdownTerminal` closes every session through the store.
 */
export const terminalModule = typedModule(({ bind }) => {
  bind<TerminalSettings>(TYPES.TerminalSettings).toResolvedValue(
    (config: Config, policy: PolicySettings, confinement: CommandConfinement) =>
      Object.freeze({
        mode: policy.mode,
        approvalChannel: config.approvalChannel,
        defaultTimeoutSeconds: config.commandTimeoutSeconds,
        maxTimeoutSeconds: config.maxCommandTimeoutSeconds,
        maxOutputBytes: config.maxOutputBytes,
        outputBudget: Object.freeze({
          maxBytes: config.resultMaxBytes,
          maxLines: config.resultMaxLines,
          stripAnsi: false,
        }),
        maxProcessesPerSession: config.maxProcessesPerSession,
        approvalTtlSeconds: config.approvalTtlSeconds,
        // Reported in plans and receipts: whatever confinement is bound, a rebound one included, speaks for itself.
        confinement: confinement.summary(),
      }),
    [TYPES.Config, TYPES.PolicySettings, TYPES.CommandConfinement],
  );
  bind<ExecutionSessionFactory>(TYPES.ExecutionSessionFactory).toResolvedValue(
    (
      config: Config,
      confinement: CommandConfinement,
      serverEnv: ServerEnvironment,
      policy: PolicySettings,
      spool: OutputSpool,
    ) =>
      new ChildProcessSessionFactory({
        maxProcessesPerSession: config.maxProcessesPerSession,
        confinement,
        serverEnv,
        nonInteractive: policy.nonInteractive,
        ...(spool.settings === undefined ? {} : { spool: spool.settings }),
      }),
    [TYPES.Config, TYPES.CommandConfinement, TYPES.ServerEnvironment, TYPES.PolicySettings, TYPES.OutputSpool],
  );
  bind<TerminalSessionStore>(TYPES.TerminalSessionStore).toResolvedValue(
    (config: Config, factory: ExecutionSessionFactory, newId: IdGenerator) => {
      const store = new TerminalSessionStore({
        factory,
        maxSessions: config.maxSessions,
        maxSessionsPerOwner: config.maxSessionsPerPrincipal,
        idleTimeoutMs: config.sessionTimeoutSeconds * 1000,
        newId,
        // Ended one-shot sessions stay readable as long as an idle session would have lived.
        retentionMs: config.sessionTimeoutSeconds * 1000,
      });
      // The one sweeper: idle sessions expire while nobody calls (a lookup never hands one out); the timer is unref'd.
      store.startSweeper(Math.min(60_000, (config.sessionTimeoutSeconds * 1000) / 4));
      return store;
    },
    [TYPES.Config, TYPES.ExecutionSessionFactory, TYPES.NewId],
  );
  bind<TerminalEvents>(TYPES.TerminalEvents).toResolvedValue(
    (store: TerminalSessionStore) => store.events,
    [TYPES.TerminalSessionStore],
  );
  bind<ApprovalService>(TYPES.ApprovalService).toResolvedValue(
    (sessions: TerminalSessionStore, settings: TerminalSettings, now: Clock, newApprovalId: IdGenerator) =>
      new ApprovalService({
        sessions,
        channel: settings.approvalChannel,
        ttlSeconds: settings.approvalTtlSeconds,
        now,
        newApprovalId,
      }),
    [TYPES.TerminalSessionStore, TYPES.TerminalSettings, TYPES.Clock, TYPES.NewApprovalId],
  );
  bind<PlanService>(TYPES.PlanService).toResolvedValue(
    (
      sessions: TerminalSessionStore,
      policy: PolicyEngine,
      workspace: WorkspaceFS,
      approvals: ApprovalService,
      settings: TerminalSettings,
      now: Clock,
      newPlanId: IdGenerator,
    ) => new PlanService({ sessions, policy, workspace, approvals, settings, now, newPlanId }),
    [
      TYPES.TerminalSessionStore,
      TYPES.PolicyEngine,
      TYPES.WorkspaceFS,
      TYPES.ApprovalService,
      TYPES.TerminalSettings,
      TYPES.Clock,
      TYPES.NewId,
    ],
  );
  bind<ExecutionService>(TYPES.ExecutionService).toResolvedValue(
    (
      sessions: TerminalSessionStore,
      policy: PolicyEngine,
      workspace: WorkspaceFS,
      plans: PlanService,
      approvals: ApprovalService,
      recorder: ReceiptRecorder,
      now: Clock,
    ) => new ExecutionService({ sessions, policy, workspace, plans, approvals, recorder, now }),
    [
      TYPES.TerminalSessionStore,
      TYPES.PolicyEngine,
      TYPES.WorkspaceFS,
      TYPES.PlanService,
      TYPES.ApprovalService,
      TYPES.ReceiptRecorder,
      TYPES.Clock,
    ],
  );
  bind<SessionOverview>(TYPES.SessionOverview).toResolvedValue(
    (sessions: TerminalSessionStore, redactor: SecretRedactor, config: Config) =>
      new SessionOverview({ sessions, redactor, pageSize: config.pageSize }),
    [TYPES.TerminalSessionStore, TYPES.SecretRedactor, TYPES.Config],
  );
  bind<CommandLocator>(TYPES.CommandLocator).toResolvedValue(
    (sessions: TerminalSessionStore) => new CommandLocator(sessions),
    [TYPES.TerminalSessionStore],
  );
  bind<CommandSignals>(TYPES.CommandSignals).toResolvedValue(
    (locator: CommandLocator) => new CommandSignals(locator),
    [TYPES.CommandLocator],
  );
  bind<CommandReader>(TYPES.CommandReader).toResolvedValue(
    (locator: CommandLocator, redactor: SecretRedactor) => new CommandReader(locator, redactor),
    [TYPES.CommandLocator, TYPES.SecretRedactor],
  );
  bind<CommandInput>(TYPES.CommandInput).toResolvedValue(
    (locator: CommandLocator) => new CommandInput(locator),
    [TYPES.CommandLocator],
  );
  bind<TerminalToolkit>(TYPES.TerminalToolkit).toResolvedValue(
    (
      settings: TerminalSettings,
      plans: PlanService,
      approvals: ApprovalService,
      execution: ExecutionService,
      signals: CommandSignals,
      reader: CommandReader,
      stdin: CommandInput,
      sessions: SessionOverview,
      confinement: CommandConfinement,
      outputs: OutputArchive,
      locator: CommandLocator,
      redactor: SecretRedactor,
    ) => ({
      settings,
      plans,
      approvals,
      execution,
      signals,
      reader,
      stdin,
      sessions,
      signalNumber,
      terminals: new TerminalScreens(locator, redactor),
      sandboxReadiness: () => confinement.readiness(),
      outputs,
    }),
    [
      TYPES.TerminalSettings,
      TYPES.PlanService,
      TYPES.ApprovalService,
      TYPES.ExecutionService,
      TYPES.CommandSignals,
      TYPES.CommandReader,
      TYPES.CommandInput,
      TYPES.SessionOverview,
      TYPES.CommandConfinement,
      TYPES.OutputArchive,
      TYPES.CommandLocator,
      TYPES.SecretRedactor,
    ],
  );
  bind<ToolDefinition[]>(TYPES.Tools).toResolvedValue(
    (kit: TerminalToolkit) => terminalTools(kit),
    [TYPES.TerminalToolkit],
  );
});

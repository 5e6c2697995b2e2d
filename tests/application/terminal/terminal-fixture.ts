import type { Container } from 'inversify';
import { silentLogger, type Logger } from '../../../src/application/logging/logger';
import type { ApprovalService } from '../../../src/application/terminal/approval-service';
import type { Clock } from '../../../src/application/terminal/clock';
import type { CommandSignals } from '../../../src/application/terminal/command-signals';
import type { ExecutionService } from '../../../src/application/terminal/execution-service';
import type { PlanService } from '../../../src/application/terminal/plan-service';
import { SecretRedactor } from '../../../src/application/terminal/secret-redactor';
import type { SessionOverview } from '../../../src/application/terminal/session-overview';
import type { TerminalSessionStore } from '../../../src/application/terminal/terminal-session-store';
import type { TerminalSettings } from '../../../src/application/terminal/terminal-settings';
import type { ToolCatalog, CallToolResult, ToolDescriptor } from '../../../src/application/tools/tool-catalog';
import type { ToolDefinition } from '../../../src/application/tools/tool-definition';
import { ChildProcessSessionFactory } from '../../../src/adapters/process/child-process-session-factory';
import type { CommandConfinement } from '../../../src/domain/execution/command-confinement';
import type { ExecutionSessionFactory } from '../../../src/domain/execution/execution-session';
import type { PolicyEngine } from '../../../src/domain/policy/policy-engine';
import type { PolicyMode } from '../../../src/domain/policy/policy-types';
import type { ApprovalChannel } from '../../../src/domain/terminal/approval-types';
import type { ReceiptAuditLog } from '../../../src/domain/terminal/receipt-audit-log';
import type { ReceiptSigner } from '../../../src/domain/terminal/receipt-signer';
import type { TerminalEvents } from '../../../src/domain/terminal/terminal-events';
import { loadConfig } from '../../../src/main/config';
import { configuredContainer, shutdownTerminal } from '../../../src/main/container';
import { SERVER_MODULES } from '../../../src/main/modules';
import { TYPES } from '../../../src/main/types';
import { assertConformsToOutputSchema } from '../../support/output-schema-check';
import { sandboxFor } from '../../support/sandbox';
import { makeTempWorkspace } from '../../support/workspace';

export const RECEIPT_KEY = 'test-receipt-key-0123456789abcdef';

export interface FixtureOptions {
  mode?: PolicyMode;
  channel?: ApprovalChannel;
  approvalTtlSeconds?: number;
  defaultTimeoutSeconds?: number;
  maxOutputBytes?: number;
  secrets?: string[];
  auditLog?: ReceiptAuditLog;
  maxSessions?: number;
  maxSessionsPerOwner?: number;
  pageSize?: number;
}

/**
 * The terminal application layer wired by the composition root's own modules, with the real policy engine, real
 * child processes in the real sandbox and a real temporary workspace. The clock is adjustable (`advance`).
 */
export class TerminalFixture {
  readonly workspace = makeTempWorkspace('term-mcp-terminal-');
  readonly root = this.workspace.root;
  /** The server's modules (src/main/modules), with only the replacements below rebound. */
  readonly container: Container;
  readonly signer: ReceiptSigner;
  /** The one store of terminal sessions. */
  readonly store: TerminalSessionStore;
  /** Their plan and command events, as the UI's stream reads them. */
  readonly events: TerminalEvents;
  readonly approvals: ApprovalService;
  readonly plans: PlanService;
  readonly execution: ExecutionService;
  readonly signals: CommandSignals;
  readonly sessions: SessionOverview;
  readonly settings: TerminalSettings;
  readonly tools: readonly ToolDefinition[];
  readonly catalog: ToolCatalog;
  /** Every policy evaluation, in order (the real engine judges each; this only records the command lines). */
  readonly evaluations: string[] = [];
  private clockOffsetMs = 0;
  readonly now = (): number => Date.now() + this.clockOffsetMs;

  constructor(options: FixtureOptions = {}) {
    const mode = options.mode ?? 'inspect';
    const maxSessions = options.maxSessions ?? 5;
    const config = loadConfig(
      {
        WORKSPACE_ROOT: this.root,
        APPROVAL_MODE: mode,
        TERM_MCP_APPROVAL: options.channel ?? 'client',
        TERM_MCP_APPROVAL_TTL: String(options.approvalTtlSeconds ?? 600),
        COMMAND_TIMEOUT: String(options.defaultTimeoutSeconds ?? 10),
        TERM_MCP_MAX_COMMAND_TIMEOUT: '60',
        MAX_OUTPUT_BYTES: String(options.maxOutputBytes ?? 1_048_576),
        MAX_CONCURRENT_SESSIONS: String(maxSessions),
        TERM_MCP_MAX_SESSIONS_PER_PRINCIPAL: String(options.maxSessionsPerOwner ?? maxSessions),
        TERM_MCP_PAGE_SIZE: String(options.pageSize ?? 100),
        TERM_MCP_RECEIPT_KEY: RECEIPT_KEY,
      },
      {},
      this.root,
    );
    const container = configuredContainer(config);
    container.load(...SERVER_MODULES);
    // What a test replaces: quiet logs, an adjustable clock, the test sandbox (tests/support/sandbox.ts) with short
    // kill grace, the secrets to redact, an audit log object; and a recorder around the real policy engine.
    container.rebind<Logger>(TYPES.Logger).toConstantValue(silentLogger);
    container.rebind<Clock>(TYPES.Clock).toConstantValue(this.now);
    container
      .rebind<CommandConfinement>(TYPES.CommandConfinement)
      .toConstantValue(sandboxFor(this.root, { workspaceWritable: mode !== 'inspect' }));
    container
      .rebind<ExecutionSessionFactory>(TYPES.ExecutionSessionFactory)
      .toResolvedValue(
        (confinement: CommandConfinement) =>
          new ChildProcessSessionFactory({ killGraceMs: 200, outputSettleMs: 50, confinement }),
        [TYPES.CommandConfinement],
      );
    container.rebind<SecretRedactor>(TYPES.SecretRedactor).toConstantValue(new SecretRedactor(options.secrets ?? []));
    if (options.auditLog !== undefined)
      container.rebind<ReceiptAuditLog>(TYPES.ReceiptAuditLog).toConstantValue(options.auditLog);
    container.onActivation<PolicyEngine>(TYPES.PolicyEngine, (_context, engine) => ({
      evaluate: (request) => {
        this.evaluations.push(request.command);
        return engine.evaluate(request);
      },
    }));
    this.container = container;
    this.signer = container.get<ReceiptSigner>(TYPES.ReceiptSigner);
    this.store = container.get<TerminalSessionStore>(TYPES.TerminalSessionStore);
    this.events = container.get<TerminalEvents>(TYPES.TerminalEvents);
    this.approvals = container.get<ApprovalService>(TYPES.ApprovalService);
    this.plans = container.get<PlanService>(TYPES.PlanService);
    this.execution = container.get<ExecutionService>(TYPES.ExecutionService);
    this.signals = container.get<CommandSignals>(TYPES.CommandSignals);
    this.sessions = container.get<SessionOverview>(TYPES.SessionOverview);
    this.settings = container.get<TerminalSettings>(TYPES.TerminalSettings);
    this.tools = container.get<ToolDefinition[]>(TYPES.Tools);
    this.catalog = container.get<ToolCatalog>(TYPES.ToolCatalog);
  }

  tool(name: string): ToolDefinition {
    const tool = this.tools.find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    return tool;
  }

  /** The tool as tools/list declares it. */
  descriptor(name: string): ToolDescriptor {
    const descriptor = this.catalog.list().find((candidate) => candidate.name === name);
    if (!descriptor) throw new Error(`no tool ${name}`);
    return descriptor;
  }

  /** The tool's full output contract (ToolCatalog.outputContract): what every result is checked against. */
  contract(name: string): Record<string, unknown> {
    return this.catalog.outputContract(name);
  }

  /** Moves the approval clock forward. */
  advance(ms: number): void {
    this.clockOffsetMs += ms;
  }

  /**
   * Calls a tool through the real catalog. Every result, refusals included, is checked against the JSON Schema the
   * catalog declares (as `@modelcontextprotocol/sdk` 1.x clients do); success shapes also against the zod schema.
   */
  async call(
    name: string,
    args: Record<string, unknown>,
    options: { principal?: string; signal?: AbortSignal } = {},
  ): Promise<CallToolResult> {
    const result = await this.catalog.call(name, args, {
      signal: options.signal ?? new AbortController().signal,
      era: 'modern',
      principal: options.principal,
    });
    if (!result.isError || isReceipt(result.structuredContent)) {
      this.tool(name).output.parse(result.structuredContent);
    }
    assertConformsToOutputSchema(this.descriptor(name), result.structuredContent);
    assertConformsToOutputSchema({ name, outputSchema: this.contract(name) }, result.structuredContent);
    return result;
  }

  /** Calls a tool and returns its structured content, failing the test when the call reports an error. */
  async ok(
    name: string,
    args: Record<string, unknown>,
    options: { principal?: string } = {},
  ): Promise<Record<string, unknown>> {
    const result = await this.call(name, args, options);
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
    return result.structuredContent;
  }

  async dispose(): Promise<void> {
    await shutdownTerminal(this.container);
    this.workspace.remove();
  }
}

function isReceipt(value: Record<string, unknown>): boolean {
  return typeof value.signature === 'string';
}

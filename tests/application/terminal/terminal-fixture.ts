import { DefaultPolicyEngine } from '../../../src/application/policy/default-policy-engine';
import { DEFAULT_POLICY_SETTINGS } from '../../../src/application/policy/policy-settings';
import { SessionRegistry } from '../../../src/application/sessions/session-registry';
import { ApprovalService } from '../../../src/application/terminal/approval-service';
import { CommandInput } from '../../../src/application/terminal/command-input';
import { CommandLocator } from '../../../src/application/terminal/command-locator';
import { CommandReader } from '../../../src/application/terminal/command-reader';
import { CommandSignals } from '../../../src/application/terminal/command-signals';
import { TerminalSessions } from '../../../src/application/terminal/terminal-sessions';
import { ExecutionService } from '../../../src/application/terminal/execution-service';
import { PlanService } from '../../../src/application/terminal/plan-service';
import { ReceiptRecorder } from '../../../src/application/terminal/receipt-recorder';
import { SecretRedactor } from '../../../src/application/terminal/secret-redactor';
import { SessionLedgers } from '../../../src/application/terminal/session-ledger';
import { SessionOverview } from '../../../src/application/terminal/session-overview';
import type { TerminalSettings } from '../../../src/application/terminal/terminal-settings';
import type { TerminalToolkit } from '../../../src/application/terminal/terminal-toolkit';
import { terminalTools } from '../../../src/application/terminal/terminal-tools';
import { ToolCatalog, type CallToolResult, type ToolDescriptor } from '../../../src/application/tools/tool-catalog';
import type { ToolDefinition } from '../../../src/application/tools/tool-definition';
import { silentLogger } from '../../../src/application/logging/logger';
import { NodeWorkspaceFS } from '../../../src/adapters/fs/node-workspace-fs';
import { NodePathInspector } from '../../../src/adapters/policy/node-path-inspector';
import { ChildProcessSessionFactory } from '../../../src/adapters/process/child-process-session-factory';
import { HmacReceiptSigner } from '../../../src/adapters/receipts/hmac-receipt-signer';
import type { PolicyEngine } from '../../../src/domain/policy/policy-engine';
import type { PolicyMode } from '../../../src/domain/policy/policy-types';
import type { ApprovalChannel } from '../../../src/domain/terminal/approval-types';
import type { ReceiptAuditLog } from '../../../src/domain/terminal/receipt-audit-log';
import { constants as osConstants } from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
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
 * The terminal application layer wired as the composition root wires it, with the real policy engine, real child
 * processes and a real temporary workspace. Only the approval clock is adjustable (`advance`).
 */
export class TerminalFixture {
  readonly workspace = makeTempWorkspace('term-mcp-terminal-');
  readonly root = this.workspace.root;
  readonly signer = new HmacReceiptSigner(RECEIPT_KEY);
  readonly registry: SessionRegistry;
  readonly ledgers = new SessionLedgers();
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
    this.settings = {
      mode,
      approvalChannel: options.channel ?? 'client',
      defaultTimeoutSeconds: options.defaultTimeoutSeconds ?? 10,
      maxTimeoutSeconds: 60,
      maxOutputBytes: options.maxOutputBytes ?? 1_048_576,
      maxProcessesPerSession: 1,
      approvalTtlSeconds: options.approvalTtlSeconds ?? 600,
    };
    const engine = new DefaultPolicyEngine(new NodePathInspector(this.root), { ...DEFAULT_POLICY_SETTINGS, mode });
    const policy: PolicyEngine = {
      evaluate: (request) => {
        this.evaluations.push(request.command);
        return engine.evaluate(request);
      },
    };
    const workspace = new NodeWorkspaceFS({ root: this.root, maxReadBytes: 1_048_576 });
    const redactor = new SecretRedactor(options.secrets ?? []);
    this.registry = new SessionRegistry({
      factory: new ChildProcessSessionFactory({ killGraceMs: 200, outputSettleMs: 50, confinement: sandboxFor(this.root, { workspaceWritable: mode !== 'inspect' }) }),
      maxSessions: options.maxSessions ?? 5,
      maxSessionsPerOwner: options.maxSessionsPerOwner ?? options.maxSessions ?? 5,
      idleTimeoutMs: 3_600_000,
      newId: randomUUID,
    });
    const sessions = new TerminalSessions(this.registry, this.ledgers);
    this.approvals = new ApprovalService({
      sessions,
      channel: this.settings.approvalChannel,
      ttlSeconds: this.settings.approvalTtlSeconds,
      now: this.now,
      newApprovalId: () => `apr_${randomBytes(24).toString('base64url')}`,
    });
    this.plans = new PlanService({
      sessions,
      policy,
      workspace,
      approvals: this.approvals,
      settings: this.settings,
      now: this.now,
      newPlanId: randomUUID,
    });
    const recorder = new ReceiptRecorder({
      signer: this.signer,
      redactor,
      auditLog: options.auditLog,
      logger: silentLogger,
      signalNumber,
      newReceiptId: randomUUID,
    });
    this.execution = new ExecutionService({
      sessions,
      policy,
      workspace,
      plans: this.plans,
      approvals: this.approvals,
      recorder,
    });
    const locator = new CommandLocator(sessions);
    this.signals = new CommandSignals(locator);
    this.sessions = new SessionOverview({ registry: this.registry, ledgers: this.ledgers, redactor, pageSize: options.pageSize ?? 100 });
    const kit: TerminalToolkit = {
      settings: this.settings,
      plans: this.plans,
      approvals: this.approvals,
      execution: this.execution,
      signals: this.signals,
      reader: new CommandReader(locator, redactor),
      stdin: new CommandInput(locator),
      sessions: this.sessions,
      signalNumber,
    };
    this.tools = terminalTools(kit);
    this.catalog = new ToolCatalog(this.tools);
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

  /** Moves the approval clock forward. */
  advance(ms: number): void {
    this.clockOffsetMs += ms;
  }

  /**
   * Calls a tool through the real catalog. Every result, refusals included, is checked against the JSON Schema the
   * catalog declares (as `@modelcontextprotocol/sdk` 1.x clients do); success shapes also against the zod schema.
   */
  async call(name: string, args: Record<string, unknown>, options: { principal?: string; signal?: AbortSignal } = {}): Promise<CallToolResult> {
    const result = await this.catalog.call(name, args, {
      signal: options.signal ?? new AbortController().signal,
      era: 'modern',
      principal: options.principal,
    });
    if (!result.isError || isReceipt(result.structuredContent)) {
      this.tool(name).output.parse(result.structuredContent);
    }
    assertConformsToOutputSchema(this.descriptor(name), result.structuredContent);
    return result;
  }

  /** Calls a tool and returns its structured content, failing the test when the call reports an error. */
  async ok(name: string, args: Record<string, unknown>, options: { principal?: string } = {}): Promise<Record<string, unknown>> {
    const result = await this.call(name, args, options);
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
    return result.structuredContent;
  }

  async dispose(): Promise<void> {
    await this.registry.closeAll();
    this.workspace.remove();
  }
}

function isReceipt(value: Record<string, unknown>): boolean {
  return typeof value.signature === 'string';
}

export function signalNumber(name: string): number | null {
  return (osConstants.signals as Record<string, number | undefined>)[name] ?? null;
}

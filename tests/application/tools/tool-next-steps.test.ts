import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TOOL_NEXT_STEPS } from '../../../src/application/tools/tool-next-steps';
import { refusalOf } from '../../../src/application/tools/tool-refusal';
import type { DomainError } from '../../../src/domain/errors';
import {
  SandboxSetupFailed,
  SessionEvicted,
  SessionExpired,
  SessionLimitReached,
} from '../../../src/domain/execution/execution-errors';
import {
  ApprovalExpired,
  CwdChanged,
  InvalidPlanTransition,
  NoCommand,
  OperatorApprovalRequired,
  PlanNotFound,
  PlanNotStarted,
  PlanRunning,
  PolicyChanged,
} from '../../../src/domain/terminal/terminal-errors';

const DOMAIN = path.resolve(__dirname, '../../../src/domain');
const TOOL_NAME = /\bterminal_[a-z_]+/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** One error of every code whose tool result names a tool in its next step, in each case that does. */
const TOOL_NAMING_ERRORS: readonly DomainError[] = [
  new PlanNotFound('s1', 'p1'),
  new InvalidPlanTransition('p1', 'approved', 'approve'),
  new InvalidPlanTransition('p1', 'running', 'execute'),
  new InvalidPlanTransition('p1', 'succeeded', 'execute'),
  new PlanRunning('p1', 'running'),
  new PolicyChanged('p1', 'allow', 'requires_approval', ['reason']),
  new CwdChanged('p1', 'src'),
  new OperatorApprovalRequired('p1', 'a1'),
  new ApprovalExpired('a1', 'p1', '2026-01-01T00:00:00.000Z'),
  new NoCommand('s1'),
  new PlanNotStarted('p1', 'planned'),
  new SessionExpired('s1', 'idle_timeout'),
  new SessionExpired('s1', 'one_shot_finished'),
  new SessionEvicted('s1'),
  new SessionLimitReached(4, 'principal'),
  new SessionLimitReached(4, 'server'),
  new SandboxSetupFailed('c1', "bwrap: Can't chdir"),
];

describe('next steps that name tools (application/tools/tool-next-steps.ts)', () => {
  it('no domain file names an MCP tool (terminal_…), in code, messages or comments', () => {
    const naming = sourceFiles(DOMAIN)
      .filter((file) => TOOL_NAME.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(DOMAIN, file));
    expect(naming).toEqual([]);
  });

  it('lists exactly the codes whose tool result names a tool', () => {
    const codes = new Set(TOOL_NAMING_ERRORS.map((error) => error.code));
    expect([...codes].sort()).toEqual(Object.keys(TOOL_NEXT_STEPS).sort());
  });

  it('gives every such error a tool-naming next step in its refusal, while its domain next step names none', () => {
    for (const error of TOOL_NAMING_ERRORS) {
      const refusal = refusalOf(error);
      expect({ code: error.code, tool: TOOL_NAME.test(refusal.next_step ?? '') }).toEqual({
        code: error.code,
        tool: true,
      });
      expect({ code: error.code, domain: TOOL_NAME.test(error.nextStep ?? '') }).toEqual({
        code: error.code,
        domain: false,
      });
      expect(refusal.next_step).not.toBe(error.nextStep);
    }
  });

  it('keeps the wording clients saw before the move', () => {
    expect(refusalOf(new PlanNotFound('s1', 'p1')).next_step).toBe(
      'Use a plan_id returned by terminal_plan for this session_id.',
    );
    expect(refusalOf(new InvalidPlanTransition('p1', 'paused', 'execute')).next_step).toBe(
      'The plan is executing: poll terminal_read for its output, or terminal_cancel to stop it.',
    );
    expect(refusalOf(new OperatorApprovalRequired('p1', 'a7')).next_step).toBe(
      'Ask the user to have an operator approve approval_id a7 in the term-mcp web UI (operator approvals route), then call terminal_execute.',
    );
    expect(refusalOf(new SessionEvicted('s1')).next_step).toBe(
      'Start a new session with terminal_plan (omit session_id) and use the session_id it returns.',
    );
  });

  it('leaves the domain next step where the case names no tool', () => {
    const queueFull = new SessionLimitReached(4, 'queue', 8);
    expect(refusalOf(queueFull).next_step).toBe(queueFull.nextStep);
    expect(refusalOf(queueFull).next_step).toBe(
      'Too many of your calls are already waiting for a session: wait for some of them to answer, then retry.',
    );
  });
});

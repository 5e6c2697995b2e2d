import type { PathInspector } from '../../../domain/policy/path-inspector.js';
import type { PolicyMode, PolicyVerdict, RiskLevel } from '../../../domain/policy/policy-types.js';
import type { PolicySettings } from '../policy-settings.js';

/** The outcome of one rule for one simple command, with the preview facts it contributes. */
export interface Judgement {
  readonly verdict: PolicyVerdict;
  readonly risk: RiskLevel;
  /** Stable snake_case id of the deciding rule. */
  readonly rule: string;
  /** Most important first. */
  readonly reasons: readonly string[];
  readonly filesTouched: readonly string[];
  readonly networkRequested: boolean;
  readonly executesProjectCode: boolean;
}

export interface PreviewFacts {
  readonly filesTouched?: readonly string[];
  readonly networkRequested?: boolean;
  readonly executesProjectCode?: boolean;
}

/** What every rule may consult. */
export interface JudgeContext {
  readonly settings: PolicySettings;
  readonly inspector: PathInspector;
  /** Absolute working directory of the request. */
  readonly cwd: string;
  /**
   * The cwd was set by a `cd` earlier in the line to a directory the line itself may create (`mkdir b && cd b &&
   * ls`): a missing directory inside the workspace is accepted (the command fails there if it is still missing).
   */
  readonly cwdFromCd?: boolean;
}

function judgement(
  verdict: PolicyVerdict,
  risk: RiskLevel,
  rule: string,
  reason: string,
  facts: PreviewFacts,
): Judgement {
  return {
    verdict,
    risk,
    rule,
    reasons: [reason],
    filesTouched: facts.filesTouched ?? [],
    networkRequested: facts.networkRequested ?? false,
    executesProjectCode: facts.executesProjectCode ?? false,
  };
}

export function deny(rule: string, reason: string, facts: PreviewFacts = {}): Judgement {
  return judgement('deny', 'blocked', rule, reason, facts);
}

export function allow(risk: RiskLevel, rule: string, reason: string, facts: PreviewFacts = {}): Judgement {
  return judgement('allow', risk, rule, reason, facts);
}

export function needsApproval(risk: RiskLevel, rule: string, reason: string, facts: PreviewFacts = {}): Judgement {
  return judgement('approval_required', risk, rule, reason, facts);
}

/** Seed mode semantics for writes, git writes and development commands. */
export function judgeByMode(
  mode: PolicyMode,
  rule: { risk: RiskLevel; rule: string; reason: string; inspectReason: string },
  facts: PreviewFacts = {},
): Judgement {
  if (mode === 'inspect') return deny(rule.rule, rule.inspectReason, facts);
  if (mode === 'confirm') return needsApproval(rule.risk, rule.rule, rule.reason, facts);
  return allow(rule.risk, rule.rule, rule.reason, facts);
}

const RISK_ORDER: readonly RiskLevel[] = ['low', 'medium', 'high', 'blocked'];

export function riskSeverity(risk: RiskLevel): number {
  return RISK_ORDER.indexOf(risk);
}

export function higherRisk(a: RiskLevel, b: RiskLevel): RiskLevel {
  return riskSeverity(a) >= riskSeverity(b) ? a : b;
}

const VERDICT_ORDER: readonly PolicyVerdict[] = ['allow', 'approval_required', 'deny'];

/** deny > approval_required > allow. */
export function verdictSeverity(verdict: PolicyVerdict): number {
  return VERDICT_ORDER.indexOf(verdict);
}

/**
 * Raises an allowed judgement to approval_required (keeping its facts), adding the reason.
 * A judgement already needing approval keeps its rule and gains the reason; a denial is left alone.
 */
export function requireApproval(current: Judgement, risk: RiskLevel, rule: string, reason: string): Judgement {
  if (current.verdict === 'deny') return current;
  if (current.verdict === 'approval_required') {
    return { ...current, risk: higherRisk(current.risk, risk), reasons: [...current.reasons, reason] };
  }
  return {
    ...current,
    verdict: 'approval_required',
    risk: higherRisk(current.risk, risk),
    rule,
    reasons: [reason, ...current.reasons],
  };
}

/** Adds a note to an allowed or approvable judgement without changing its verdict (trusted mode). */
export function withRisk(current: Judgement, risk: RiskLevel, reason: string): Judgement {
  if (current.verdict === 'deny') return current;
  return { ...current, risk: higherRisk(current.risk, risk), reasons: [...current.reasons, reason] };
}

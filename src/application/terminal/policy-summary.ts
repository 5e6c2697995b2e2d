import { commandArgv } from '../../domain/execution/trusted-launch.js';
import type { LaunchForm, PolicyDecision, PolicyVerdict } from '../../domain/policy/policy-types.js';
import type { PolicySummary } from '../../domain/terminal/receipt-types.js';

/** Seed `PolicyDecision.to_dict()` plus `verdict` and `matched_rule`. */
export function summarizePolicy(decision: PolicyDecision): PolicySummary {
  return {
    allowed: decision.verdict !== 'deny',
    risk: decision.risk,
    requires_approval: decision.verdict === 'approval_required',
    reasons: [...decision.reasons],
    argv: launchArgv(decision.launch),
    verdict: decision.verdict,
    matched_rule: decision.matchedRule,
  };
}

/** What will actually be executed; empty for a denied command (seed: `argv` or `[]`). */
export function launchArgv(launch: LaunchForm | undefined): string[] {
  if (!launch) return [];
  return commandArgv(launch);
}

const STRICTNESS: Record<PolicyVerdict, number> = { allow: 0, approval_required: 1, deny: 2 };

export function isStricter(now: PolicyVerdict, planned: PolicyVerdict): boolean {
  return STRICTNESS[now] > STRICTNESS[planned];
}

export function sameLaunch(a: LaunchForm | undefined, b: LaunchForm | undefined): boolean {
  return a?.kind === b?.kind && JSON.stringify(launchArgv(a)) === JSON.stringify(launchArgv(b));
}

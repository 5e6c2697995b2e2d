import type { PolicyDecision, PolicyRequest } from './policy-types.js';

/**
 * Port: decides allow / deny / approval_required for every command before anything runs.
 * Contract: anything the engine cannot fully understand is denied or needs approval, never allowed.
 * The engine is read-only for the agent: no tool can change it.
 */
export interface PolicyEngine {
  evaluate(request: PolicyRequest): PolicyDecision;
}

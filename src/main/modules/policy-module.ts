import { typedModule } from '../typed-module.js';
import { DefaultPolicyEngine } from '../../application/policy/default-policy-engine.js';
import type { PolicySettings } from '../../application/policy/policy-settings.js';
import { NodePathInspector } from '../../adapters/policy/node-path-inspector.js';
import type { PathInspector } from '../../domain/policy/path-inspector.js';
import type { PolicyEngine } from '../../domain/policy/policy-engine.js';
import type { Config } from '../config.js';
import { loadPolicySettings } from '../policy-file.js';
import { TYPES } from '../types.js';

/**
 * The policy: its settings (defaults, TERM_MCP_POLICY, then APPROVAL_MODE / ALLOW_NETWORK), the path facts it
 * judges words with, and the engine. `buildContainer` resolves the settings at start-up, so a bad policy file stops
 * the server instead of the first tool call.
 */
export const policyModule = typedModule(({ bind }) => {
  bind<PolicySettings>(TYPES.PolicySettings).toResolvedValue(loadPolicySettings, [TYPES.Config]);
  bind<PathInspector>(TYPES.PathInspector).toResolvedValue(
    (config: Config) => new NodePathInspector(config.workspaceRoot),
    [TYPES.Config],
  );
  bind<PolicyEngine>(TYPES.PolicyEngine).toResolvedValue(
    (inspector: PathInspector, settings: PolicySettings, config: Config) =>
      new DefaultPolicyEngine(inspector, settings, config.maxCommandLength),
    [TYPES.PathInspector, TYPES.PolicySettings, TYPES.Config],
  );
});

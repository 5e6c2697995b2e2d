import { typedModule } from '../typed-module.js';
import type { Logger } from '../../application/logging/logger.js';
import type { PolicySettings } from '../../application/policy/policy-settings.js';
import type { FilteringProxy } from '../../adapters/sandbox/filtering-proxy.js';
import type { CommandConfinement } from '../../domain/execution/command-confinement.js';
import type { Config } from '../config.js';
import { buildConfinement, startFilteringProxy } from '../sandbox-setup.js';
import { TYPES } from '../types.js';

/**
 * What commands run inside: the bubblewrap sandbox (or the unconfined launch with TERM_MCP_SANDBOX=off), and with
 * ALLOW_NETWORK the filtering proxy it reaches out through. `buildContainer` resolves the confinement at start-up,
 * so the proxy listens before the first command; `shutdownTerminal` unbinds the proxy, which closes it (only if it
 * was ever started).
 */
export const sandboxModule = typedModule(({ bind }) => {
  bind<FilteringProxy | undefined>(TYPES.FilteringProxy)
    .toResolvedValue(
      (config: Config, policy: PolicySettings, logger: Logger) =>
        startFilteringProxy(config, policy, (decision) => {
          // Refusals are what an operator looks for (a registry missing from the list, or a command trying elsewhere).
          if (!decision.allowed) logger.warn('network proxy refused a destination', { ...decision });
        }),
      [TYPES.Config, TYPES.PolicySettings, TYPES.Logger],
    )
    .onDeactivation((proxy) => proxy?.close());
  bind<CommandConfinement>(TYPES.CommandConfinement).toResolvedValue(
    (config: Config, policy: PolicySettings, proxy: FilteringProxy | undefined) =>
      buildConfinement(config, policy, proxy),
    [TYPES.Config, TYPES.PolicySettings, { serviceIdentifier: TYPES.FilteringProxy, optional: true }],
  );
});

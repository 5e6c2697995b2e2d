import { OutputArchive } from '../../application/terminal/output-archive.js';
import type { Clock } from '../../application/terminal/clock.js';
import type { Config } from '../config.js';
import { outputSpoolSettings } from '../output-spool-directory.js';
import { typedModule } from '../typed-module.js';
import { TYPES, type OutputSpool } from '../types.js';

/**
 * Issue 24: where commands spool their whole output (a directory of this server process, outside the workspace), and
 * the archive that keeps finished commands' output readable as resources, bounded by time and bytes.
 * `shutdownTerminal` deletes both.
 */
export const outputModule = typedModule(({ bind }) => {
  bind<OutputSpool>(TYPES.OutputSpool).toResolvedValue(
    (config: Config) => ({ settings: outputSpoolSettings(config) }),
    [TYPES.Config],
  );
  bind<OutputArchive>(TYPES.OutputArchive).toResolvedValue(
    (config: Config, now: Clock) =>
      new OutputArchive({
        retentionMs: config.sessionTimeoutSeconds * 1000,
        budgetBytes: config.outputSpoolBudgetBytes,
        now,
      }),
    [TYPES.Config, TYPES.Clock],
  );
});

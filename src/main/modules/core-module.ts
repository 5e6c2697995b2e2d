import { randomBytes, randomUUID } from 'node:crypto';
import { typedModule } from '../typed-module.js';
import type { Logger } from '../../application/logging/logger.js';
import { StderrLogger } from '../../adapters/logging/stderr-logger.js';
import type { Config } from '../config.js';
import type { Clock } from '../../application/terminal/clock.js';
import { TYPES, type IdGenerator, type ServerEnvironment } from '../types.js';

/** What every area uses: the logger, the clock, the id generators, and the environment as read at start-up. */
export const coreModule = typedModule(({ bind }) => {
  bind<Logger>(TYPES.Logger).toResolvedValue((config: Config) => new StderrLogger(config.logLevel), [TYPES.Config]);
  bind<Clock>(TYPES.Clock).toConstantValue(Date.now);
  bind<IdGenerator>(TYPES.NewId).toConstantValue(randomUUID);
  bind<IdGenerator>(TYPES.NewApprovalId).toConstantValue(mintApprovalId);
  // src/main is the only reader of process.env; commands inherit only its locale and terminal (the process adapter
  // filters it).
  bind<ServerEnvironment>(TYPES.ServerEnvironment).toResolvedValue(() => process.env);
});

/** 192 random bits: an approval id is what the operator route acts on, so it must not be guessable. */
function mintApprovalId(): string {
  return `apr_${randomBytes(24).toString('base64url')}`;
}

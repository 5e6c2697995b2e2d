import type { Logger } from '../application/logging/logger.js';
import { seedSettingsWithoutEffect, type Config } from './config.js';

/** One warning per seed-only setting that is set: accepted, so old .env files work, but it changes nothing. */
export function warnAboutSeedSettings(logger: Logger, config: Config): void {
  for (const { name, reason } of seedSettingsWithoutEffect(config)) {
    logger.warn('seed setting accepted but without effect', { setting: name, reason });
  }
}

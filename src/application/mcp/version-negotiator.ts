import type { ProtocolNegotiator, VersionClass } from '../../domain/protocol/protocol-negotiator.js';
import {
  LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../../domain/protocol/versions.js';

/** The default negotiator: the versions declared in `versions.ts`. */
export class VersionNegotiator implements ProtocolNegotiator {
  readonly supportedVersions = SUPPORTED_PROTOCOL_VERSIONS;

  classify(version: string): VersionClass {
    if (MODERN_PROTOCOL_VERSIONS.includes(version)) return 'modern';
    if (LEGACY_PROTOCOL_VERSIONS.includes(version)) return 'legacy';
    return 'unsupported';
  }

  /** 2025-11-25 lifecycle: echo a supported requested version, otherwise answer with our latest legacy version. */
  negotiateLegacy(requested: string): string {
    return LEGACY_PROTOCOL_VERSIONS.includes(requested) ? requested : LEGACY_PROTOCOL_VERSION;
  }
}

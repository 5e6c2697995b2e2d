import type { ProtocolEra } from '../../domain/protocol/versions.js';
import type { EraTransportRules } from './era-codec.js';
import { LEGACY_TRANSPORT_RULES } from './legacy-codec.js';
import { MODERN_TRANSPORT_RULES } from './modern-codec.js';

/** Each era's transport rules, as its codec declares them: what the transports look up for a classified message. */
export const ERA_TRANSPORT_RULES: Readonly<Record<ProtocolEra, EraTransportRules>> = Object.freeze({
  modern: MODERN_TRANSPORT_RULES,
  legacy: LEGACY_TRANSPORT_RULES,
});

import { z } from 'zod';
import { META } from '../../domain/protocol/versions.js';

const ImplementationSchema = z.looseObject({ name: z.string(), version: z.string() });
const LogLevelSchema = z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/**
 * 2026-07-28 basic/index `RequestMetaObject`: protocolVersion and clientCapabilities are required on every request,
 * clientInfo is optional but must be an Implementation when present.
 */
export const RequestMetaSchema = z.looseObject({
  [META.protocolVersion]: z.string({ error: `params._meta["${META.protocolVersion}"] must be a string` }),
  [META.clientCapabilities]: z.record(z.string(), z.unknown(), {
    error: `params._meta["${META.clientCapabilities}"] is required and must be an object`,
  }),
  [META.clientInfo]: ImplementationSchema.optional(),
  [META.logLevel]: LogLevelSchema.optional(),
});

export interface ModernRequestMeta {
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
}

/** True when the request carries modern per-request metadata: that alone selects the 2026-07-28 era. */
export function hasModernMeta(params: Record<string, unknown> | undefined): boolean {
  const meta = params?._meta;
  return typeof meta === 'object' && meta !== null && META.protocolVersion in meta;
}

export function readProtocolVersion(params: Record<string, unknown> | undefined): unknown {
  const meta = params?._meta;
  return typeof meta === 'object' && meta !== null
    ? (meta as Record<string, unknown>)[META.protocolVersion]
    : undefined;
}

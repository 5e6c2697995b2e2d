import { z } from 'zod';
import type { ProgressReporter } from '../tools/tool-definition.js';
import type { JsonRpcNotification } from './jsonrpc.js';

const ProgressTokenSchema = z.union([z.string(), z.number()]);

/** A request's progress channel: `report` while it is served, `close` once its response is on its way. */
export interface ProgressChannel {
  readonly report: ProgressReporter;
  close(): void;
}

/**
 * 2026-07-28 / 2025-11-25 basic/utilities/progress: a request carrying `_meta.progressToken` may get
 * `notifications/progress` with that token, on its own response stream (`notify` writes to it), with a progress that
 * increases every time, and none after its response. Undefined when the request asked for none or the transport has
 * no stream for it.
 */
export function progressChannelFor(
  params: Record<string, unknown> | undefined,
  notify: ((notification: JsonRpcNotification) => void) | undefined,
): ProgressChannel | undefined {
  const meta = params?._meta;
  if (notify === undefined || typeof meta !== 'object' || meta === null) return undefined;
  const token = ProgressTokenSchema.safeParse((meta as Record<string, unknown>).progressToken);
  if (!token.success) return undefined;
  let last = Number.NEGATIVE_INFINITY;
  let open = true;
  return {
    report: (progress, message) => {
      if (!open || !Number.isFinite(progress) || progress <= last) return;
      last = progress;
      const params = { progressToken: token.data, progress, ...(message === undefined ? {} : { message }) };
      notify({ jsonrpc: '2.0', method: 'notifications/progress', params });
    },
    close: () => {
      open = false;
    },
  };
}

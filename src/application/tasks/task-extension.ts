import { META } from '../../domain/protocol/versions.js';

/** The tasks extension's identifier (ext-tasks draft, SEP-2663), advertised under `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * True when this request's client declares the tasks extension in its per-request capabilities
 * (`_meta["io.modelcontextprotocol/clientCapabilities"].extensions["io.modelcontextprotocol/tasks"]`, 2026-07-28
 * basic/index): the only way a stateless client opts in, so it is read from every request on its own.
 */
export function declaresTasks(params: Record<string, unknown> | undefined): boolean {
  const capabilities = field(field(params?._meta, META.clientCapabilities), 'extensions');
  return field(capabilities, TASKS_EXTENSION) !== undefined;
}

function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entry = (value as Record<string, unknown>)[key];
  return entry === null ? undefined : entry;
}

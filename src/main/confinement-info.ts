import type { Config } from './config.js';

/**
 * What confines a running command beyond the policy, as `GET /mcp/info` reports it. Today: no OS sandbox (the policy
 * engine is the boundary, docs/security.md), one process group per command killed whole on timeout and cancel, a
 * scrubbed environment, a timeout and an output cap.
 */
export function confinementInfo(config: Config): Readonly<Record<string, unknown>> {
  return Object.freeze({
    sandbox: 'none',
    process_group: true,
    scrubbed_environment: true,
    command_timeout_seconds: config.commandTimeoutSeconds,
    max_output_bytes: config.maxOutputBytes,
  });
}

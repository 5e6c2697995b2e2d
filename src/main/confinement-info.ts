import type { CommandConfinement } from '../domain/execution/command-confinement.js';
import type { Config } from './config.js';

/**
 * What confines a running command beyond the policy, as `GET /mcp/info` reports it: the sandbox summary that plans
 * and receipts carry (`{sandbox: "bubblewrap", writable_roots, network, limits}` or `{sandbox: "off"}`), plus what
 * holds with or without it: one process group per command killed whole on timeout and cancel, a scrubbed
 * environment, a timeout and an output cap.
 */
export function confinementInfo(config: Config, confinement: CommandConfinement): Readonly<Record<string, unknown>> {
  return Object.freeze({
    ...confinement.summary(),
    process_group: true,
    scrubbed_environment: true,
    command_timeout_seconds: config.commandTimeoutSeconds,
    max_output_bytes: config.maxOutputBytes,
  });
}

import type { Router } from 'express';
import { DEMO_SCENARIOS } from '../application/demo/demo-scenarios.js';
import type { ServerInfo } from '../application/mcp/server-identity.js';
import type { PolicySettings } from '../application/policy/policy-settings.js';
import { RECEIPT_SCHEMA_FILE, receiptJsonSchema } from '../application/receipts/receipt-document.js';
import type { ReceiptInspection } from '../application/receipts/receipt-inspection.js';
import { createMcpInfoRouter, type McpInfo } from '../adapters/web/mcp-info-route.js';
import { createPublicReceiptRouter } from '../adapters/web/public-receipt-routes.js';
import { createReceiptRouter, RECEIPT_BODY_PATHS } from '../adapters/web/receipt-routes.js';
import type { CommandConfinement } from '../domain/execution/command-confinement.js';
import { MODERN_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../domain/protocol/versions.js';
import type { Config } from './config.js';
import { confinementInfo } from './confinement-info.js';

/** The seed UI imports receipts of up to 2 MB; 2 MiB leaves room for the `{"receipt": ...}` wrapper. */
export const RECEIPT_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

export interface ReceiptHttpMounts {
  /** Behind auth: `GET /mcp/info`, `POST /receipts/validate`, `POST /receipts/redact`. */
  mountProtected(router: Router): void;
  /** Public: `GET /schemas/receipt-1.0.json`, `GET /demo/scenarios`. */
  mountPublic(router: Router): void;
  /** Paths whose bodies the receipt routes read themselves (the transport's body limit skips them). */
  readonly ownBodyPaths: readonly string[];
}

/** The seed's receipt toolchain and info routes over HTTP, with the server's own receipt key. */
export function mountReceiptHttp(
  config: Config,
  receipts: ReceiptInspection,
  policy: PolicySettings,
  server: ServerInfo,
  confinement: CommandConfinement,
): ReceiptHttpMounts {
  const info = mcpInfo(config, policy, server, confinement);
  const schema = { file: RECEIPT_SCHEMA_FILE, body: receiptJsonSchema() };
  return {
    mountProtected(router) {
      router.use(createMcpInfoRouter(info));
      router.use(createReceiptRouter({ receipts, maxBodyBytes: RECEIPT_BODY_LIMIT_BYTES }));
    },
    mountPublic(router) {
      router.use(createPublicReceiptRouter({ schema, scenarios: DEMO_SCENARIOS }));
    },
    ownBodyPaths: RECEIPT_BODY_PATHS,
  };
}

function mcpInfo(config: Config, policy: PolicySettings, server: ServerInfo, confinement: CommandConfinement): McpInfo {
  return {
    name: server.name,
    version: server.version,
    description: 'Safe terminal planning and execution over MCP, inside one workspace',
    protocol_version: MODERN_PROTOCOL_VERSION,
    supported_protocol_versions: SUPPORTED_PROTOCOL_VERSIONS,
    approval_mode: policy.mode,
    approval_channel: config.approvalChannel,
    workspace: config.workspaceRoot,
    network_allowed: policy.allowNetwork,
    limits: {
      session_timeout_seconds: config.sessionTimeoutSeconds,
      command_timeout_seconds: config.commandTimeoutSeconds,
      max_output_bytes: config.maxOutputBytes,
    },
    transports: ['http', 'stdio'],
    authentication: { http: 'bearer', stdio: 'process-local' },
    model: {
      provider: 'deepseek',
      model: config.deepseekModel,
      available: config.deepseekApiKey !== undefined,
      timeout_seconds: config.deepseekTimeoutSeconds,
      max_retries: config.deepseekMaxRetries,
      max_tokens: config.deepseekMaxTokens,
    },
    confinement: confinementInfo(config, confinement),
  };
}

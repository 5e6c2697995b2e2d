import { Router } from 'express';

/** Seed `get_info()` (`GET /mcp/info`), plus `approval_channel` and `confinement`. Built once by the composition root. */
export interface McpInfo {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly protocol_version: string;
  readonly supported_protocol_versions: readonly string[];
  readonly approval_mode: string;
  readonly approval_channel: string;
  readonly workspace: string;
  readonly network_allowed: boolean;
  readonly limits: {
    readonly session_timeout_seconds: number;
    readonly command_timeout_seconds: number;
    readonly max_output_bytes: number;
  };
  readonly transports: readonly string[];
  readonly authentication: { readonly http: string; readonly stdio: string };
  readonly model: {
    readonly provider: string;
    readonly model: string;
    readonly available: boolean;
    readonly timeout_seconds: number;
    readonly max_retries: number;
    readonly max_tokens: number;
  };
  /** What confines a running command beyond the policy (see docs/security.md). */
  readonly confinement: Readonly<Record<string, unknown>>;
}

/** `GET /mcp/info`, behind the transport's bearer auth (it names the workspace path). */
export function createMcpInfoRouter(info: McpInfo): Router {
  const router = Router();
  const body = Object.freeze(info);
  router.get('/mcp/info', (_req, res) => {
    res.status(200).json(body);
  });
  return router;
}

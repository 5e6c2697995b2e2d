import { Router } from 'express';

/** What the browser UI needs to lay itself out. No secrets: no tokens, keys, or workspace path. */
export interface UiConfig {
  readonly approval_channel: 'client' | 'operator';
  readonly mode: string;
  /** The MCP protocol version the UI speaks on `POST /mcp` (it has no constant of its own). */
  readonly protocol_version: string;
  readonly chat: { readonly available: boolean; readonly model: string | null };
  readonly limits: {
    readonly command_timeout_seconds: number;
    readonly max_output_bytes: number;
    readonly session_timeout_seconds: number;
    readonly max_chat_message_chars: number;
  };
}

/** `GET /ui/config` (behind the transport's auth): the UI's settings. */
export function createUiConfigRouter(config: UiConfig): Router {
  const router = Router();
  const body = Object.freeze(config);
  router.get('/ui/config', (_req, res) => {
    res.status(200).json(body);
  });
  return router;
}

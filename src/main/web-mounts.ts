import path from 'node:path';
import type { Router } from 'express';
import type { CommandPlanner } from '../application/chat/command-planner.js';
import { MAX_CHAT_MESSAGE_CHARS } from '../application/chat/chat-request.js';
import { PlanningChat } from '../application/chat/planning-chat.js';
import type { Logger } from '../application/logging/logger.js';
import type { ApprovalService } from '../application/terminal/approval-service.js';
import type { PlanService } from '../application/terminal/plan-service.js';
import type { TerminalSessionStore } from '../application/terminal/terminal-session-store.js';
import type { TerminalSettings } from '../application/terminal/terminal-settings.js';
import { legacyWebMounts } from '../adapters/legacy-web/legacy-web-router.js';
import { createOperatorRouter } from '../adapters/web/operator-approval-router.js';
import { createDocsRouter, createStaticUiRouter } from '../adapters/web/static-ui-router.js';
import { createUiRouter, uiRouteHandlers } from '../adapters/web/ui-router.js';
import { locateVendorFiles } from '../adapters/web/vendor-files.js';
import type { WebSessions } from '../adapters/web/web-ports.js';
import type { ChatModel } from '../domain/chat/chat-model.js';
import { MODERN_PROTOCOL_VERSION } from '../domain/protocol/versions.js';
import type { TerminalEvents } from '../domain/terminal/terminal-events.js';
import type { WorkspaceFS } from '../domain/workspace/workspace-fs.js';
import type { Config } from './config.js';
import { PACKAGE_NAME, packageStaticDir } from './package-root.js';

/** Seed §7: a `ping` at least every 15 s keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/** The two hooks of the HTTP app (`createMcpHttpApp`) that carry the web layer. */
export interface WebMounts {
  /** Behind the transport's bearer auth: the UI's routes (`/ui/*`), and the deprecated `/sessions`, `/stream`, `/chat`. */
  mountProtected(router: Router): void;
  /** Before auth: the UI files, the operator route (its own token), and the deprecation headers of 401s. */
  mountPublic(router: Router): void;
}

/** What the web layer is built from (`TYPES.WebMounts` in `modules/web-module.ts` declares these). */
export interface WebDependencies {
  readonly config: Config;
  readonly logger: Logger;
  readonly sessions: TerminalSessionStore;
  readonly events: TerminalEvents;
  readonly workspace: WorkspaceFS;
  readonly settings: TerminalSettings;
  readonly approvals: ApprovalService;
  readonly plans: PlanService;
  /** The planning chat's model (`TYPES.ChatModel`). */
  readonly model: ChatModel;
}

/** The web layer: the browser UI and its routes, the planning chat, operator approvals, and the deprecated web API. */
export function mountWeb({
  config,
  logger,
  sessions: store,
  events,
  workspace,
  settings,
  approvals,
  plans,
  model,
}: WebDependencies): WebMounts {
  const planner = commandPlanner(plans);

  const sessions: WebSessions = {
    create: (principal) => store.create(workspace.root, principal).id,
  };
  const chat = new PlanningChat({
    model,
    planner,
    sessions: { create: () => sessions.create(undefined), exists: (sessionId) => store.find(sessionId) !== undefined },
  });
  const ui = uiRouteHandlers({
    events,
    chat,
    sessions,
    heartbeatMs: HEARTBEAT_MS,
    maxRequestBytes: config.maxRequestBytes,
  });
  const staticDir = packageStaticDir();
  if (staticDir === undefined) logger.warn('web UI files not found; GET / is not served', { package: PACKAGE_NAME });
  const vendorFiles = staticDir === undefined ? undefined : locateVendorFiles(path.dirname(staticDir));
  if (staticDir !== undefined && vendorFiles === undefined)
    logger.warn('@xterm/xterm not found; the UI shows output as plain text');

  const current: WebMounts = {
    mountProtected(router) {
      router.use(
        createUiRouter(ui, {
          approval_channel: settings.approvalChannel,
          mode: settings.mode,
          protocol_version: MODERN_PROTOCOL_VERSION,
          chat: { available: model.available, model: model.available ? config.deepseekModel : null },
          limits: {
            command_timeout_seconds: settings.defaultTimeoutSeconds,
            max_output_bytes: settings.maxOutputBytes,
            session_timeout_seconds: config.sessionTimeoutSeconds,
            max_chat_message_chars: MAX_CHAT_MESSAGE_CHARS,
          },
        }),
      );
    },
    mountPublic(router) {
      router.use(createOperatorRouter({ operatorToken: config.operatorToken, approvals }));
      if (staticDir !== undefined) {
        router.use(createStaticUiRouter(staticDir, vendorFiles));
        router.use(createDocsRouter(path.join(path.dirname(staticDir), 'docs')));
      }
    },
  };
  // The deprecated web API is the one line that mounts it, and its import (docs/web.md#deprecation); the formatter
  // leaves it on one line, so deleting that line deletes the mount.
  const mounts: readonly WebMounts[] = [
    // prettier-ignore
    legacyWebMounts({ sessions: { ...sessions, close: (id) => store.close(id) }, chat, current: ui, deprecation: { sunset: config.sunset, link: config.deprecationLink } }),
    current,
  ];
  return {
    mountProtected: (router) => mounts.forEach((mount) => mount.mountProtected(router)),
    mountPublic: (router) => mounts.forEach((mount) => mount.mountPublic(router)),
  };
}

/** The chat's planner is `terminal_plan` itself: same policy, same session store, same approvals. It never executes. */
function commandPlanner(plans: PlanService): CommandPlanner {
  return {
    async plan(sessionId, command) {
      const plan = await plans.plan({ sessionId, command });
      return {
        command: plan.command,
        planId: plan.id,
        status: plan.status,
        verdict: plan.decision.verdict,
        risk: plan.decision.risk,
        requiresApproval: plan.decision.verdict === 'approval_required',
        reasons: plan.decision.reasons,
      };
    },
  };
}

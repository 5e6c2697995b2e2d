import type { ProtocolEra } from '../../domain/protocol/versions.js';
import { paginate } from '../pagination/paginate.js';
import type { ToolCatalog, ToolDescriptor } from '../tools/tool-catalog.js';
import type { ProgressReporter } from '../tools/tool-definition.js';
import type { PromptProvider, ResourceProvider } from './capability-ports.js';
import {
  CallToolParamsSchema,
  GetPromptParamsSchema,
  ListParamsSchema,
  parseParams,
  ReadResourceParamsSchema,
} from './method-params.js';
import type { TaskOffers } from '../tasks/task-offers.js';
import { serializedOnce } from './serialized-once.js';
import type { CachePolicy } from './server-identity.js';

/** A method's raw result, before the era stamps it. `ttlMs` marks a cacheable result (2026-07-28 caching). */
export interface HandlerResult {
  body: Record<string, unknown>;
  ttlMs?: number;
  /** `task`: the body is a `CreateTaskResult` (tasks extension); otherwise the result is complete. */
  resultType?: 'task';
}

export interface FeatureCall {
  params: Record<string, unknown> | undefined;
  era: ProtocolEra;
  signal: AbortSignal;
  principal: string | undefined;
  /** The request's revision: its `_meta` one (modern), or the legacy session's negotiated one. */
  protocolVersion?: string;
  /** Reports progress on this request's own stream, when it asked for it (`_meta.progressToken`). */
  progress?: ProgressReporter;
}

export type FeatureHandler = (call: FeatureCall) => Promise<HandlerResult>;

export interface FeatureDependencies {
  tools: ToolCatalog;
  resources: ResourceProvider;
  prompts: PromptProvider;
  pageSize: number;
  cache: CachePolicy;
  /** The tasks extension: absent, no call ever becomes a task. */
  tasks?: TaskOffers;
}

/** Handlers for the methods both eras share: tools, resources, prompts. */
export function featureHandlers(deps: FeatureDependencies): ReadonlyMap<string, FeatureHandler> {
  const { tools, resources, prompts, pageSize, cache, tasks } = deps;
  // The catalog is static, so each page of it is serialized once (keyed by its first tool: bounded by the catalog).
  const toolPages = new Map<string, readonly ToolDescriptor[]>();
  const toolPage = (items: readonly ToolDescriptor[]): readonly ToolDescriptor[] => {
    const key = items[0]?.name ?? '';
    let page = toolPages.get(key);
    if (page === undefined) {
      page = serializedOnce(items);
      toolPages.set(key, page);
    }
    return page;
  };
  return new Map<string, FeatureHandler>([
    [
      'tools/list',
      async ({ params }) => {
        const { cursor } = parseParams(ListParamsSchema, params, 'tools/list');
        const page = paginate(tools.list(), (tool) => tool.name, cursor, pageSize);
        return { body: withCursor({ tools: toolPage(page.items) }, page.nextCursor), ttlMs: cache.catalogTtlMs };
      },
    ],
    [
      'tools/call',
      async ({ params, era, signal, principal, protocolVersion, progress }) => {
        const { name, arguments: args } = parseParams(CallToolParamsSchema, params, 'tools/call');
        const offer = tasks?.offer(params, era, principal);
        const result = await tools.call(name, args, {
          signal,
          era,
          principal,
          protocolVersion,
          progress,
          tasks: offer,
        });
        const task = offer?.created();
        return task === undefined ? { body: { ...result } } : { body: { ...task }, resultType: 'task' };
      },
    ],
    [
      'resources/list',
      async ({ params }) => {
        const { cursor } = parseParams(ListParamsSchema, params, 'resources/list');
        const page = await resources.list(cursor, pageSize);
        return { body: withCursor({ resources: page.resources }, page.nextCursor), ttlMs: cache.workspaceTtlMs };
      },
    ],
    [
      'resources/templates/list',
      async ({ params }) => {
        const { cursor } = parseParams(ListParamsSchema, params, 'resources/templates/list');
        const page = paginate(resources.templates(), (template) => String(template.uriTemplate), cursor, pageSize);
        return { body: withCursor({ resourceTemplates: page.items }, page.nextCursor), ttlMs: cache.catalogTtlMs };
      },
    ],
    [
      'resources/read',
      async ({ params, principal }) => {
        const { uri } = parseParams(ReadResourceParamsSchema, params, 'resources/read');
        const result = await resources.read(uri, principal);
        return { body: { ...result }, ttlMs: cache.workspaceTtlMs };
      },
    ],
    [
      'prompts/list',
      async ({ params }) => {
        const { cursor } = parseParams(ListParamsSchema, params, 'prompts/list');
        const page = paginate(prompts.list(), (prompt) => prompt.name, cursor, pageSize);
        return { body: withCursor({ prompts: page.items }, page.nextCursor), ttlMs: cache.catalogTtlMs };
      },
    ],
    [
      'prompts/get',
      async ({ params }) => {
        const { name, arguments: args } = parseParams(GetPromptParamsSchema, params, 'prompts/get');
        return { body: { ...prompts.get(name, args) } };
      },
    ],
  ]);
}

function withCursor(body: Record<string, unknown>, nextCursor: string | undefined): Record<string, unknown> {
  return nextCursor === undefined ? body : { ...body, nextCursor };
}

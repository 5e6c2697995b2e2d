import type { ProtocolNegotiator } from '../../domain/protocol/protocol-negotiator.js';
import { ERROR_CODES, META } from '../../domain/protocol/versions.js';
import type { EraCodec, EraTransportRules } from './era-codec.js';
import type { FeatureHandler, HandlerResult } from './feature-handlers.js';
import { methodNotFound, toMcpError, type EraErrorCodes } from './json-rpc-errors.js';
import type { JsonRpcRequest } from './jsonrpc.js';
import { McpError } from './mcp-error.js';
import { readProtocolVersion, RequestMetaSchema } from './request-meta.js';
import { MODERN_SERVER_CAPABILITIES, type CachePolicy, type ServerInfo } from './server-identity.js';

/** 2026-07-28: `Accept` refusals are -32020, the standard headers mirror the body, and requests are stateless. */
export const MODERN_TRANSPORT_RULES: EraTransportRules = Object.freeze({
  notAcceptableCode: ERROR_CODES.headerMismatch,
  mirrorsStandardHeaders: true,
  stateless: true,
});

/** 2026-07-28 uses the category codes for every typed error (it MUST NOT emit -32002). */
export const MODERN_ERROR_CODES: EraErrorCodes = Object.freeze({});

export interface ModernCodecOptions {
  negotiator: ProtocolNegotiator;
  serverInfo: ServerInfo;
  instructions: string;
  /** The methods both eras share (tools, resources, prompts). */
  features: ReadonlyMap<string, FeatureHandler>;
  cache: CachePolicy;
}

/**
 * The 2026-07-28 era: stateless requests carrying `_meta`. Its method table is the shared features plus
 * `server/discover` (no `initialize`, no `ping`); every result is stamped with `resultType` and serverInfo.
 */
export class ModernCodec implements EraCodec {
  readonly era = 'modern' as const;
  readonly transport = MODERN_TRANSPORT_RULES;
  private readonly methods: ReadonlyMap<string, FeatureHandler>;

  constructor(private readonly options: ModernCodecOptions) {
    this.methods = new Map([...options.features, ['server/discover', this.discover]]);
  }

  decode(request: JsonRpcRequest): FeatureHandler {
    this.validateMeta(request.params);
    const handler = this.methods.get(request.method);
    if (handler === undefined) throw methodNotFound(request.method);
    return handler;
  }

  protocolVersion(request: JsonRpcRequest): string | undefined {
    const version = readProtocolVersion(request.params);
    return typeof version === 'string' ? version : undefined;
  }

  /** Every modern result carries `resultType` and serverInfo; cacheable ones carry `ttlMs` and `cacheScope`. */
  encode(result: HandlerResult): Record<string, unknown> {
    const cacheHints = result.ttlMs === undefined ? {} : { ttlMs: result.ttlMs, cacheScope: 'private' };
    return {
      ...result.body,
      resultType: result.resultType ?? 'complete',
      ...cacheHints,
      _meta: { [META.serverInfo]: this.options.serverInfo },
    };
  }

  encodeError(error: unknown): McpError | undefined {
    return toMcpError(error, MODERN_ERROR_CODES);
  }

  /** 2026-07-28 basic/index: required `_meta` fields missing → -32602; unsupported version → -32022. */
  private validateMeta(params: Record<string, unknown> | undefined): void {
    const requested = readProtocolVersion(params);
    if (typeof requested === 'string') {
      const versionClass = this.options.negotiator.classify(requested);
      if (versionClass !== 'modern') {
        const message =
          versionClass === 'legacy' ? 'Legacy protocol versions require initialize' : 'Unsupported protocol version';
        throw new McpError(ERROR_CODES.unsupportedProtocolVersion, message, {
          supported: [...this.options.negotiator.supportedVersions],
          requested,
        });
      }
    }
    const parsed = RequestMetaSchema.safeParse(params?._meta);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new McpError(ERROR_CODES.invalidParams, issue?.message ?? 'Invalid request metadata');
    }
  }

  private readonly discover: FeatureHandler = async () => ({
    body: {
      supportedVersions: [...this.options.negotiator.supportedVersions],
      capabilities: MODERN_SERVER_CAPABILITIES,
      instructions: this.options.instructions,
    },
    ttlMs: this.options.cache.discoverTtlMs,
  });
}

import { InFlightRequests, LegacyHandshake } from '../../../src/application/mcp/connection-state';
import { McpDispatcher, type DispatchContext } from '../../../src/application/mcp/dispatcher';
import type { FeatureCall, FeatureHandler } from '../../../src/application/mcp/feature-handlers';
import type { JsonRpcResponse } from '../../../src/application/mcp/jsonrpc';
import { classifyMessage } from '../../../src/application/mcp/message-classification';
import { DEFAULT_CACHE_POLICY } from '../../../src/application/mcp/server-identity';
import { VersionNegotiator } from '../../../src/application/mcp/version-negotiator';
import type { Logger } from '../../../src/application/logging/logger';
import { InvalidCursor } from '../../../src/domain/errors';
import { ResourceNotFound } from '../../../src/domain/workspace/workspace-errors';
import { ERROR_CODES, META, SUPPORTED_PROTOCOL_VERSIONS } from '../../../src/domain/protocol/versions';

const SERVER_INFO = { name: 'term-mcp', version: '0.0.0-test' };
const MODERN_META = { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: {} };

class RecordingLogger implements Logger {
  readonly errors: Array<{ message: string; fields: Record<string, unknown> | undefined }> = [];
  info(): void {}
  warn(): void {}
  error(message: string, fields?: Record<string, unknown>): void {
    this.errors.push({ message, fields });
  }
}

/** The real dispatcher over hand-made features that record how they were called. */
function setUp(extra: Record<string, FeatureHandler> = {}) {
  const calls: FeatureCall[] = [];
  const logger = new RecordingLogger();
  const features: Record<string, FeatureHandler> = {
    'tools/list': async (call) => {
      calls.push(call);
      return { body: { tools: [] }, ttlMs: 1000 };
    },
    'resources/read': async () => {
      throw new ResourceNotFound('workspace:///missing.txt');
    },
    'resources/list': async () => {
      throw new InvalidCursor();
    },
    'prompts/list': async () => {
      throw new Error('disk on fire at /secret/path');
    },
    ...extra,
  };
  const dispatcher = new McpDispatcher({
    negotiator: new VersionNegotiator(),
    serverInfo: SERVER_INFO,
    instructions: 'test instructions',
    features: new Map(Object.entries(features)),
    cache: DEFAULT_CACHE_POLICY,
    logger,
  });
  return { dispatcher, calls, logger };
}

function stdioContext(handshake = new LegacyHandshake(), inFlight = new InFlightRequests()): DispatchContext {
  return { transport: 'stdio', handshake, inFlight };
}

function errorOf(response: JsonRpcResponse | undefined): { code: number; message: string; data?: unknown } {
  if (response === undefined || !('error' in response))
    throw new Error(`expected an error, got ${JSON.stringify(response)}`);
  return response.error;
}

function resultOf(response: JsonRpcResponse | undefined): Record<string, unknown> {
  if (response === undefined || !('result' in response))
    throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return response.result;
}

async function initializedSession(dispatcher: McpDispatcher, context: DispatchContext): Promise<void> {
  await dispatcher.handle(
    {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    },
    context,
  );
  await dispatcher.handle({ jsonrpc: '2.0', method: 'notifications/initialized' }, context);
}

describe('McpDispatcher', () => {
  describe('modern requests (2026-07-28 _meta)', () => {
    it('serves statelessly and stamps resultType, serverInfo and cache hints', async () => {
      const { dispatcher, calls } = setUp();
      const handshake = new LegacyHandshake();

      const response = await dispatcher.handle(
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN_META } },
        stdioContext(handshake),
      );

      expect(response).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: {
          tools: [],
          resultType: 'complete',
          ttlMs: 1000,
          cacheScope: 'private',
          _meta: { [META.serverInfo]: SERVER_INFO },
        },
      });
      expect(calls.map((call) => call.era)).toEqual(['modern']);
      expect(handshake.started).toBe(false);
    });

    it('answers server/discover with every supported version', async () => {
      const { dispatcher } = setUp();
      const result = resultOf(
        await dispatcher.handle(
          { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: MODERN_META } },
          stdioContext(),
        ),
      );
      expect(result.supportedVersions).toEqual([...SUPPORTED_PROTOCOL_VERSIONS]);
    });

    it('refuses an unsupported version with -32022 and a legacy one as needing initialize', async () => {
      const { dispatcher } = setUp();
      const request = (version: string) => ({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { ...MODERN_META, [META.protocolVersion]: version } },
      });

      expect(errorOf(await dispatcher.handle(request('1999-01-01'), stdioContext()))).toEqual({
        code: ERROR_CODES.unsupportedProtocolVersion,
        message: 'Unsupported protocol version',
        data: { supported: [...SUPPORTED_PROTOCOL_VERSIONS], requested: '1999-01-01' },
      });
      expect(errorOf(await dispatcher.handle(request('2025-11-25'), stdioContext())).message).toBe(
        'Legacy protocol versions require initialize',
      );
    });

    it('refuses modern metadata without clientCapabilities with -32602', async () => {
      const { dispatcher } = setUp();
      const response = await dispatcher.handle(
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { [META.protocolVersion]: '2026-07-28' } } },
        stdioContext(),
      );
      expect(errorOf(response)).toEqual({
        code: ERROR_CODES.invalidParams,
        message: `params._meta["${META.clientCapabilities}"] is required and must be an object`,
      });
    });

    it('treats legacy-only methods as not found (-32601)', async () => {
      const { dispatcher } = setUp();
      const response = await dispatcher.handle(
        { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: MODERN_META } },
        stdioContext(),
      );
      expect(errorOf(response)).toEqual({
        code: ERROR_CODES.methodNotFound,
        message: 'Method not found',
        data: { method: 'ping' },
      });
    });
  });

  describe('legacy sessions (2025-11-25 initialize)', () => {
    it('says what is missing when a request has neither _meta nor a session', async () => {
      const { dispatcher } = setUp();
      const response = await dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, stdioContext());
      expect(errorOf(response)).toEqual({
        code: ERROR_CODES.invalidParams,
        message: `Missing params._meta["${META.protocolVersion}"]: send 2026-07-28 request metadata, or initialize a legacy session first`,
      });
    });

    it('negotiates on initialize, waits for notifications/initialized, then serves in the legacy era', async () => {
      const { dispatcher, calls } = setUp();
      const context = stdioContext();
      const initialize = await dispatcher.handle(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
        },
        context,
      );
      expect(resultOf(initialize)).toMatchObject({
        protocolVersion: '2025-06-18',
        serverInfo: SERVER_INFO,
        instructions: 'test instructions',
      });

      const early = await dispatcher.handle({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, context);
      expect(errorOf(early)).toEqual({
        code: ERROR_CODES.invalidRequest,
        message: 'notifications/initialized must be sent before other legacy requests',
      });

      expect(await dispatcher.handle({ jsonrpc: '2.0', method: 'notifications/initialized' }, context)).toBeUndefined();
      expect(resultOf(await dispatcher.handle({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, context))).toEqual({
        tools: [],
      });
      expect(calls.map((call) => call.era)).toEqual(['legacy']);
    });

    it('refuses a second initialize on the same session', async () => {
      const { dispatcher } = setUp();
      const context = stdioContext();
      await initializedSession(dispatcher, context);
      const again = await dispatcher.handle(
        {
          jsonrpc: '2.0',
          id: 9,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
        },
        context,
      );
      expect(errorOf(again)).toEqual({
        code: ERROR_CODES.invalidRequest,
        message: 'initialize was already received for this session',
      });
    });

    it('answers ping without a session and refuses server/discover inside one', async () => {
      const { dispatcher } = setUp();
      expect(resultOf(await dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'ping' }, stdioContext()))).toEqual({});
      const context = stdioContext();
      await initializedSession(dispatcher, context);
      expect(errorOf(await dispatcher.handle({ jsonrpc: '2.0', id: 2, method: 'server/discover' }, context)).code).toBe(
        ERROR_CODES.methodNotFound,
      );
    });
  });

  describe('errors', () => {
    it('answers resource-not-found with -32602 to modern requests and -32002 in a legacy session', async () => {
      const { dispatcher } = setUp();
      const modern = errorOf(
        await dispatcher.handle(
          { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { _meta: MODERN_META } },
          stdioContext(),
        ),
      );
      const context = stdioContext();
      await initializedSession(dispatcher, context);
      const legacy = errorOf(await dispatcher.handle({ jsonrpc: '2.0', id: 2, method: 'resources/read' }, context));

      const data = {
        code: 'resource_not_found',
        uri: 'workspace:///missing.txt',
        next_step: 'List resources to find a valid URI.',
      };
      expect(modern).toEqual({
        code: ERROR_CODES.invalidParams,
        message: 'Resource not found: workspace:///missing.txt',
        data,
      });
      expect(legacy).toEqual({
        code: ERROR_CODES.legacyResourceNotFound,
        message: 'Resource not found: workspace:///missing.txt',
        data,
      });
    });

    it('turns other typed errors into -32602 with their code and next step', async () => {
      const { dispatcher } = setUp();
      const response = await dispatcher.handle(
        { jsonrpc: '2.0', id: 1, method: 'resources/list', params: { _meta: MODERN_META } },
        stdioContext(),
      );
      expect(errorOf(response)).toEqual({
        code: ERROR_CODES.invalidParams,
        message: 'Invalid pagination cursor',
        data: { code: 'invalid_cursor', next_step: 'Restart listing without a cursor.' },
      });
    });

    it('hides an unexpected failure behind -32603 and logs it', async () => {
      const { dispatcher, logger } = setUp();
      const response = await dispatcher.handle(
        { jsonrpc: '2.0', id: 7, method: 'prompts/list', params: { _meta: MODERN_META } },
        stdioContext(),
      );
      expect(response).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: { code: ERROR_CODES.internalError, message: 'Internal error' },
      });
      expect(logger.errors.map((entry) => [entry.message, entry.fields?.method])).toEqual([
        ['internal error while handling a request', 'prompts/list'],
      ]);
    });

    it('answers an invalid message with -32600 and its salvaged id, and never answers responses or notifications', async () => {
      const { dispatcher } = setUp();
      expect(await dispatcher.handle({ jsonrpc: '1.0', id: 4, method: 'tools/list' }, stdioContext())).toEqual({
        jsonrpc: '2.0',
        id: 4,
        error: { code: ERROR_CODES.invalidRequest, message: 'Invalid request: jsonrpc: Invalid input: expected "2.0"' },
      });
      expect(errorOf(await dispatcher.handle([], stdioContext()))).toEqual({
        code: ERROR_CODES.invalidRequest,
        message: 'JSON-RPC batches are not supported',
      });
      expect(await dispatcher.handle({ jsonrpc: '2.0', id: 5, result: {} }, stdioContext())).toBeUndefined();
      expect(
        await dispatcher.handle({ jsonrpc: '2.0', method: 'notifications/whatever' }, stdioContext()),
      ).toBeUndefined();
    });
  });

  describe('dispatch of a classified message', () => {
    it('serves in the era the classification says, without reading the body again', async () => {
      const { dispatcher, calls } = setUp();
      const classified = classifyMessage({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: MODERN_META },
      });
      expect(classified).toMatchObject({ kind: 'request', era: 'modern', method: 'tools/list', id: 1 });

      const response = await dispatcher.dispatch(classified, stdioContext());

      expect(resultOf(response)).toMatchObject({ resultType: 'complete' });
      expect(calls.map((call) => call.era)).toEqual(['modern']);
    });
  });

  describe('cancellation (2025-11-25 utilities/cancellation)', () => {
    it('aborts the work of a request the client cancels, and sends no response for it', async () => {
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const { dispatcher } = setUp({
        'tools/call': (call) =>
          new Promise((_resolve, reject) => {
            call.signal.addEventListener('abort', () => reject(new Error('stopped')));
            started();
          }),
      });
      const context = stdioContext();
      await initializedSession(dispatcher, context);

      const pending = dispatcher.handle(
        { jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'x' } },
        context,
      );
      await running;
      await dispatcher.handle(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow', reason: 'user' } },
        context,
      );

      expect(await pending).toBeUndefined();
      expect(context.inFlight?.size).toBe(0);
    });
  });
});

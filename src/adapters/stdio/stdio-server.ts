import type { Readable, Writable } from 'node:stream';
import { InFlightRequests, LegacyHandshake } from '../../application/mcp/connection-state.js';
import type { DispatchContext } from '../../application/mcp/dispatcher.js';
import {
  errorResponse,
  parseErrorResponse,
  type JsonRpcNotification,
  type JsonRpcResponse,
} from '../../application/mcp/jsonrpc.js';
import { classifyMessage, type ClassifiedMessage } from '../../application/mcp/message-classification.js';
import type { Logger } from '../../application/logging/logger.js';
import { serializeMessage } from '../../application/mcp/serialized-once.js';
import { refusalJsonRpcCode } from '../../application/mcp/transport-refusals.js';
import { LineSplitter } from './line-splitter.js';

export interface MessageHandler {
  /** Serves a message this adapter classified (the same `classifyMessage` the HTTP adapter uses). */
  dispatch(message: ClassifiedMessage, context: DispatchContext): Promise<JsonRpcResponse | undefined>;
}

export interface StdioServerOptions {
  input: Readable;
  output: Writable;
  handler: MessageHandler;
  logger: Logger;
  /** Largest accepted line; larger ones get -32600 and are skipped. */
  maxLineBytes?: number;
}

const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

/**
 * The STDIO transport: one JSON-RPC message per line in, one per line out, nothing else on stdout.
 * Requests are handled concurrently (answers keep their ids, not their order). Resolves after stdin ends and
 * every in-flight request has been answered.
 */
export async function serveStdio(options: StdioServerOptions): Promise<void> {
  const { input, output, handler, logger } = options;
  // One legacy handshake per process: the stdio connection is the legacy "session" (2026-07-28 basic/versioning).
  // Notifications about a request (its progress) go on the one stream there is, between the answers.
  const notify = (notification: JsonRpcNotification): void => {
    output.write(`${JSON.stringify(notification)}\n`);
  };
  const context: DispatchContext = {
    transport: 'stdio',
    handshake: new LegacyHandshake(),
    inFlight: new InFlightRequests(),
    notify,
  };
  const pending = new Set<Promise<void>>();

  const write = (response: JsonRpcResponse): void => {
    output.write(`${serializeMessage(response)}\n`);
  };

  const handleLine = (line: string): void => {
    const text = line.trim();
    if (text === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      write(parseErrorResponse());
      return;
    }
    const task = handler
      .dispatch(classifyMessage(value), context)
      .then((response) => {
        if (response) write(response);
      })
      .catch((error: unknown) => {
        logger.error('stdio handler failed', { error: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => pending.delete(task));
    pending.add(task);
  };

  const splitter = new LineSplitter(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, handleLine, () =>
    write(
      errorResponse(null, {
        code: refusalJsonRpcCode('line_too_large'),
        message: 'Message exceeds the maximum line size',
      }),
    ),
  );

  await new Promise<void>((resolve, reject) => {
    input.on('data', (chunk: Buffer | string) => splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    input.once('end', () => {
      splitter.end();
      resolve();
    });
    input.once('error', reject);
  });
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import { ERA_TRANSPORT_RULES } from '../../application/mcp/era-transport-rules.js';
import {
  carriesName,
  type ClassifiedMessage,
  type MessageFacts,
} from '../../application/mcp/message-classification.js';
import { refuse } from './json-rpc-reply.js';
import { classifiedMessageOf } from './mcp-message.js';

/** `=?base64?<base64 of UTF-8>?=`: how a client sends a value that is not plain visible ASCII. */
const BASE64_VALUE = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/**
 * Header rules of POST /mcp, checked BEFORE dispatch so a request whose headers lie never runs.
 * - Every POST (both eras): `Accept` must cover `application/json` and `text/event-stream`, else 406
 *   (-32020 for modern requests; -32600 for legacy ones, whose protocol has no -32020). Wildcard ranges
 *   count (the any-type range, `application/*`, `text/*`: RFC 9110 §12.5.1); a range with `q=0` does not.
 * - Modern requests (body has `_meta["io.modelcontextprotocol/protocolVersion"]`, 2026-07-28 streamable-http):
 *   `MCP-Protocol-Version` must equal the `_meta` version, `Mcp-Method` the body `method`, and `Mcp-Name` the body
 *   `params.name`/`params.uri` for tools/call, prompts/get, resources/read (`params.taskId` for tasks/get, update,
 *   cancel). Missing or different: 400 + -32020.
 *   For notifications the revision defines no header rules, so headers are only checked when present.
 * What differs by era (the Accept refusal's code, whether standard headers mirror the body) is read from the era
 * codec's transport rules (era-transport-rules.ts). Bodies that name no method pass through: the route rejects them. The guard reads what `classifyMcpBody` (which
 * runs before it) read from the body; it does not parse the body itself.
 */
export function mcpHeaderGuard(): RequestHandler {
  return (req, res, next) => {
    const message = factsOf(classifiedMessageOf(res));
    if (message === undefined) {
      next();
      return;
    }
    const rules = ERA_TRANSPORT_RULES[message.era];
    if (!acceptsJsonAndEventStream(req.headers.accept)) {
      refuse(
        res,
        'not_acceptable',
        'Not Acceptable: the Accept header must list application/json and text/event-stream',
        message.id,
        rules.notAcceptableCode,
      );
      return;
    }
    const problem = rules.mirrorsStandardHeaders ? standardHeaderProblem(req.headers, message) : undefined;
    if (problem !== undefined) {
      refuse(res, 'header_mismatch', problem, message.id);
      return;
    }
    next();
  };
}

/** True when every media type MCP may answer with is acceptable. */
export function acceptsJsonAndEventStream(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const ranges = accept
    .split(',')
    .map((part) => part.split(';'))
    .filter(([, ...parameters]) => !parameters.some((parameter) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/i.test(parameter)))
    .map(([range]) => (range ?? '').trim().toLowerCase());
  const covers = (type: string): boolean =>
    ranges.some((range) => range === type || range === '*/*' || range === `${type.split('/')[0]}/*`);
  return covers('application/json') && covers('text/event-stream');
}

/**
 * 2025-11-25 transports, `MCP-Protocol-Version` inside a legacy session: a client MUST send the negotiated version,
 * but when the header is absent and the server knows the version another way (the session negotiated it), the server
 * SHOULD use that. 2025-03-26 clients (`@modelcontextprotocol/sdk` 1.12) never send it. Only an invalid value or one
 * this session does not speak is refused (400). Returns the problem, or undefined when the request may proceed.
 */
export function legacySessionVersionProblem(
  header: string | string[] | undefined,
  negotiated: string,
): string | undefined {
  if (header === undefined) return undefined;
  const value = single(header);
  if (value === negotiated) return undefined;
  return `Unsupported MCP-Protocol-Version header '${clip(value ?? '')}': this session negotiated ${negotiated} (send it, or omit the header)`;
}

/** Decodes a `=?base64?…?=` header value; plain values come back as they are; malformed ones as undefined. */
export function decodeMcpHeaderValue(value: string): string | undefined {
  const match = BASE64_VALUE.exec(value);
  if (!match) return value;
  const encoded = match[1] ?? '';
  if (encoded.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(encoded, 'base64');
  const text = new TextDecoder('utf-8', { fatal: true });
  try {
    return text.decode(bytes);
  } catch {
    return undefined;
  }
}

function standardHeaderProblem(headers: IncomingHttpHeaders, message: MessageFacts): string | undefined {
  const versionProblem = compare(
    'MCP-Protocol-Version',
    single(headers['mcp-protocol-version']),
    message.protocolVersion,
    message.isRequest,
  );
  if (versionProblem) return versionProblem;
  const methodProblem = compare('Mcp-Method', single(headers['mcp-method']), message.method, message.isRequest);
  if (methodProblem) return methodProblem;
  if (!carriesName(message.method)) return undefined;
  const rawName = single(headers['mcp-name']);
  const name = rawName === undefined ? undefined : decodeMcpHeaderValue(rawName);
  if (rawName !== undefined && name === undefined) return 'Malformed Mcp-Name header: invalid base64 value';
  return compare('Mcp-Name', name, message.name, true);
}

/**
 * A header must be present when `required`, and equal the body value when both exist. A body value of the wrong
 * type is not compared: the dispatcher reports it as invalid params.
 */
function compare(
  header: string,
  headerValue: string | undefined,
  bodyValue: unknown,
  required: boolean,
): string | undefined {
  if (headerValue === undefined) return required ? `Missing ${header} header` : undefined;
  if (typeof bodyValue !== 'string' || headerValue === bodyValue) return undefined;
  return `Header mismatch: ${header} header value '${clip(headerValue)}' does not match body value '${clip(bodyValue)}'`;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function clip(value: string): string {
  return value.length > 100 ? `${value.slice(0, 100)}…` : value;
}

/** What the header rules look at: any message naming a method, valid or not (Accept is checked before validity). */
function factsOf(message: ClassifiedMessage | undefined): MessageFacts | undefined {
  if (message === undefined || message.kind === 'response') return undefined;
  return message.kind === 'invalid' ? message.facts : message;
}

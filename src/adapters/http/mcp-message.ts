import type { RequestHandler, Response } from 'express';
import { classifyMessage, type ClassifiedMessage } from '../../application/mcp/message-classification.js';

/**
 * Reads the POST /mcp body once (kind, era, method, name, id) and keeps the result on `res.locals`, where the header
 * guard and the route take it, and the route hands it to the dispatcher. Runs after the body parser; an empty body
 * is left unclassified (the route answers it with a parse error).
 */
export function classifyMcpBody(): RequestHandler {
  return (req, res, next) => {
    const body: unknown = req.body;
    if (body !== undefined) res.locals.mcpMessage = classifyMessage(body);
    next();
  };
}

/** The classification of this request's body, or undefined when `classifyMcpBody` found no body. */
export function classifiedMessageOf(res: Response): ClassifiedMessage | undefined {
  return res.locals.mcpMessage as ClassifiedMessage | undefined;
}

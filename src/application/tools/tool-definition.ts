import type { z } from 'zod';
import type { ProtocolEra } from '../../domain/protocol/versions.js';
import type { TaskOffer } from '../tasks/task-work.js';

/** 2026-07-28 server/tools `ToolAnnotations`: hints only, set honestly per tool. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** What a tool handler knows about the call it serves. */
export interface ToolCallContext {
  /** Aborted when the client cancels the request (stdio `notifications/cancelled`, HTTP disconnect). */
  readonly signal: AbortSignal;
  readonly era: ProtocolEra;
  /** Who is calling (HTTP auth subject); `undefined` on stdio, where the parent process is trusted. */
  readonly principal: string | undefined;
  /** Present when the caller declared the tasks extension: long work may become a task instead of a result. */
  readonly tasks?: TaskOffer;
  /** The request's protocol revision (the legacy session's negotiated one), when known: what content it can carry. */
  readonly protocolVersion?: string;
  /** Present when the client asked for progress (`_meta.progressToken`): reports on that request's own stream. */
  readonly progress?: ProgressReporter;
}

/** Sends `notifications/progress` for the request being served; values that do not increase are dropped. */
export type ProgressReporter = (progress: number, message?: string) => void;

/** 2025-06-18 on: a link to a resource the client may read, listed after the result's text. */
export interface ResourceLink {
  readonly type: 'resource_link';
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
}

/**
 * A tool's successful or failed-but-valid outcome. `structured` must match the tool's `output` schema, `isError` or
 * not (clients check every structured result against the declared schema). Handlers signal refusals by throwing a
 * `DomainError`; the catalog turns it into an `isError: true` result with `{ code, message, next_step, details }`,
 * a shape every declared output schema also accepts (tool-refusal.ts). `isError` here is for results that carry a
 * full payload and still failed (a command that timed out returns its receipt with `isError: true`).
 */
export interface ToolOutcome {
  readonly structured: Record<string, unknown>;
  readonly text?: string;
  readonly isError?: boolean;
  /** Resources the result refers to (the whole output of a command), for clients whose revision has links. */
  readonly links?: readonly ResourceLink[];
}

export interface ToolDefinition<Input extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** Strict zod object: unknown keys rejected. Exported as JSON Schema `inputSchema`. */
  readonly input: Input;
  /** The success shapes (an object, or a union of objects). Exported as `outputSchema` with the refusal shape added. */
  readonly output: z.ZodType;
  readonly annotations: ToolAnnotations;
  call(args: z.infer<Input>, context: ToolCallContext): Promise<ToolOutcome>;
}

/** Helps a module declare a tool with its input type inferred from the schema. */
export function defineTool<Input extends z.ZodType>(definition: ToolDefinition<Input>): ToolDefinition {
  return definition as unknown as ToolDefinition;
}

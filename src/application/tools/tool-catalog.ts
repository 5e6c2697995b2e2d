import { z } from 'zod';
import { DomainError } from '../../domain/errors.js';
import type { ToolCallObserver } from './tool-call-log.js';
import type { ResourceLink, ToolCallContext, ToolDefinition, ToolOutcome } from './tool-definition.js';
import { UnknownTool } from './tool-errors.js';
import {
  declaredOutputSchema,
  invalidArgumentsRefusal,
  refusalOf,
  refusalText,
  type ToolRefusal,
} from './tool-refusal.js';

/** The wire form of a tool (2026-07-28 server/tools `Tool`). */
export interface ToolDescriptor {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: Record<string, unknown>;
}

export interface CallToolResult {
  /** The text first (the structured content as JSON, or a refusal), then any resource links. */
  content: [{ type: 'text'; text: string }, ...ResourceLink[]];
  structuredContent: Record<string, unknown>;
  isError: boolean;
}

/**
 * The deterministic tool catalog: registration order is list order, and JSON Schemas are derived once from the
 * zod definitions so every `tools/list` answer is byte-for-byte stable.
 */
export class ToolCatalog {
  private readonly byName = new Map<string, ToolDefinition>();
  private readonly descriptors: readonly ToolDescriptor[];
  private readonly contracts = new Map<string, Record<string, unknown>>();

  /** `observer` hears of every call once it has answered (the per-call log line); `now` times it, in ms. */
  constructor(
    tools: readonly ToolDefinition[],
    private readonly observer?: ToolCallObserver,
    private readonly now: () => number = () => performance.now(),
  ) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`Duplicate tool name: ${tool.name}`);
      this.byName.set(tool.name, tool);
    }
    this.descriptors = Object.freeze(tools.map(describeTool));
  }

  list(): readonly ToolDescriptor[] {
    return this.descriptors;
  }

  /**
   * The full JSON Schema of a tool's results (every success shape and the refusal shape), derived from its zod
   * output. Not on the wire (see `PUBLISHED_OUTPUT_SCHEMA`): the tests check every result against it.
   */
  outputContract(name: string): Record<string, unknown> {
    let contract = this.contracts.get(name);
    const tool = this.byName.get(name);
    if (contract === undefined && tool !== undefined) {
      contract = outputJsonSchema(tool.output);
      this.contracts.set(name, contract);
    }
    if (contract === undefined) throw new UnknownTool(name);
    return contract;
  }

  /** Runs a tool. Unknown tools throw `UnknownTool`; everything the tool itself reports comes back as a result. */
  async call(
    name: string,
    rawArguments: Record<string, unknown> | undefined,
    context: ToolCallContext,
  ): Promise<CallToolResult> {
    if (this.observer === undefined) return this.run(name, rawArguments, context);
    const started = this.now();
    const observe = (structured: Record<string, unknown> | undefined, isError: boolean, thrownCode?: string): void =>
      this.observer?.toolCalled({
        tool: name,
        arguments: rawArguments,
        structured,
        isError,
        durationMs: this.now() - started,
        thrownCode,
      });
    try {
      const result = await this.run(name, rawArguments, context);
      observe(result.structuredContent, result.isError);
      return result;
    } catch (error) {
      observe(undefined, true, error instanceof DomainError ? error.code : 'internal_error');
      throw error;
    }
  }

  private async run(
    name: string,
    rawArguments: Record<string, unknown> | undefined,
    context: ToolCallContext,
  ): Promise<CallToolResult> {
    const tool = this.byName.get(name);
    if (!tool) throw new UnknownTool(name);
    // 2025-11-25 (SEP-1303): input validation failures are tool execution errors, so the model can correct itself.
    const parsed = tool.input.safeParse(rawArguments ?? {});
    if (!parsed.success) return refusalResult(invalidArgumentsRefusal(parsed.error));
    try {
      return toolResultOf(await tool.call(parsed.data, context), context.protocolVersion);
    } catch (error) {
      if (error instanceof DomainError) return refusalResultOf(error);
      throw error;
    }
  }
}

/**
 * `resource_link` content arrived in 2025-06-18: an older client's result schema has no such member and would reject
 * the whole result (sdk 1.12, for one). Revisions compare as dates; an unknown revision gets no links.
 */
function carriesLinks(protocolVersion: string | undefined): boolean {
  return (
    protocolVersion !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(protocolVersion) && protocolVersion >= '2025-06-18'
  );
}

/**
 * The `outputSchema` every tool publishes: an object. The full result schemas were 80 % of `tools/list` (31 KB of
 * 38.6 KB, about 8k tokens in every conversation of every client) and told a model nothing its results do not: each
 * result's text is its structured content as JSON, with `next_step` where there is one. Clients still learn that a
 * tool returns structured content, and an object always conforms (the v1 and v2 TypeScript SDKs and the Python SDK
 * check every result against it). The contract itself is `ToolCatalog.outputContract`, which the tests enforce, and
 * schemas/receipt-1.0.json for receipts (docs/tools.md).
 */
export const PUBLISHED_OUTPUT_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({ type: 'object' });

function describeTool(tool: ToolDefinition): ToolDescriptor {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: compactInputSchema(z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>),
    outputSchema: { ...PUBLISHED_OUTPUT_SCHEMA },
    // The title is the tool's own `title` (2025-06-18 on); not repeated here.
    annotations: { ...withoutTitle(tool.annotations) },
  };
}

function withoutTitle(annotations: ToolDefinition['annotations']): Record<string, unknown> {
  const { title: _title, ...hints } = annotations;
  return hints;
}

/**
 * The input schema without what carries no meaning for a client: `$schema` (2020-12 is MCP's default dialect) and
 * zod's bounds of a safe integer (±2^53−1) on integer fields. Strictness (`additionalProperties: false`, required
 * fields, real bounds) stays; the catalog still parses every call with the zod schema.
 */
function compactInputSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  const properties = rest.properties as Record<string, Record<string, unknown>> | undefined;
  if (properties === undefined) return rest;
  const compact = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => {
      const { maximum, minimum, ...others } = property;
      return [
        key,
        {
          ...others,
          ...(maximum === Number.MAX_SAFE_INTEGER ? {} : maximum === undefined ? {} : { maximum }),
          ...(minimum === Number.MIN_SAFE_INTEGER ? {} : minimum === undefined ? {} : { minimum }),
        },
      ];
    }),
  );
  return { ...rest, properties: compact };
}

/**
 * Every tool can refuse, so every declared output also accepts the refusal shape (tool-refusal.ts). `$schema` is left
 * out: 2020-12 is the default dialect of MCP schemas anyway, and validators built on a default ajv instance (sdk 1.12
 * clients, among others) refuse to compile a schema naming the 2020-12 meta-schema, then skip the check and warn.
 */
function outputJsonSchema(output: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(declaredOutputSchema(output), { io: 'output' }) as Record<
    string,
    unknown
  >;
  return schema;
}

/**
 * The result of every refused tool call: `isError: true`, structured content `{ code, message, next_step, details }`
 * (valid for every declared output schema), and a text block naming the code, message and next step.
 */
export function toolErrorResult(
  code: string,
  message: string,
  nextStep: string | undefined,
  details: Record<string, unknown>,
): CallToolResult {
  return refusalResult({ code, message, next_step: nextStep ?? null, details });
}

/** A tool's outcome as a `CallToolResult`: its structured content, and the same as JSON text. */
export function toolResultOf(outcome: ToolOutcome, protocolVersion: string | undefined): CallToolResult {
  const links = outcome.links !== undefined && carriesLinks(protocolVersion) ? outcome.links : [];
  return {
    content: [{ type: 'text', text: outcome.text ?? JSON.stringify(outcome.structured, null, 2) }, ...links],
    structuredContent: outcome.structured,
    isError: outcome.isError ?? false,
  };
}

/** A typed refusal as the `isError: true` result every tool gives for it (also a task's result: tasks/get). */
export function refusalResultOf(error: DomainError): CallToolResult {
  return refusalResult(refusalOf(error));
}

function refusalResult(refusal: ToolRefusal): CallToolResult {
  return { content: [{ type: 'text', text: refusalText(refusal) }], structuredContent: { ...refusal }, isError: true };
}

import { z } from 'zod';
import { DomainError } from '../../domain/errors.js';
import type { ToolCallObserver } from './tool-call-log.js';
import type { ToolCallContext, ToolDefinition } from './tool-definition.js';
import { UnknownTool } from './tool-errors.js';
import { declaredOutputSchema, invalidArgumentsRefusal, refusalOf, refusalText, type ToolRefusal } from './tool-refusal.js';

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
  content: Array<{ type: 'text'; text: string }>;
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

  /** Runs a tool. Unknown tools throw `UnknownTool`; everything the tool itself reports comes back as a result. */
  async call(name: string, rawArguments: Record<string, unknown> | undefined, context: ToolCallContext): Promise<CallToolResult> {
    if (this.observer === undefined) return this.run(name, rawArguments, context);
    const started = this.now();
    const observe = (structured: Record<string, unknown> | undefined, isError: boolean, thrownCode?: string): void =>
      this.observer?.toolCalled({ tool: name, arguments: rawArguments, structured, isError, durationMs: this.now() - started, thrownCode });
    try {
      const result = await this.run(name, rawArguments, context);
      observe(result.structuredContent, result.isError);
      return result;
    } catch (error) {
      observe(undefined, true, error instanceof DomainError ? error.code : 'internal_error');
      throw error;
    }
  }

  private async run(name: string, rawArguments: Record<string, unknown> | undefined, context: ToolCallContext): Promise<CallToolResult> {
    const tool = this.byName.get(name);
    if (!tool) throw new UnknownTool(name);
    // 2025-11-25 (SEP-1303): input validation failures are tool execution errors, so the model can correct itself.
    const parsed = tool.input.safeParse(rawArguments ?? {});
    if (!parsed.success) return refusalResult(invalidArgumentsRefusal(parsed.error));
    try {
      const outcome = await tool.call(parsed.data, context);
      return {
        content: [{ type: 'text', text: outcome.text ?? JSON.stringify(outcome.structured, null, 2) }],
        structuredContent: outcome.structured,
        isError: outcome.isError ?? false,
      };
    } catch (error) {
      if (error instanceof DomainError) return refusalResult(refusalOf(error));
      throw error;
    }
  }
}

function describeTool(tool: ToolDefinition): ToolDescriptor {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>,
    outputSchema: outputJsonSchema(tool.output),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/**
 * Every tool can refuse, so every declared output also accepts the refusal shape (tool-refusal.ts). `$schema` is left
 * out: 2020-12 is the default dialect of MCP schemas anyway, and validators built on a default ajv instance (sdk 1.12
 * clients, among others) refuse to compile a schema naming the 2020-12 meta-schema, then skip the check and warn.
 */
function outputJsonSchema(output: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(declaredOutputSchema(output), { io: 'output' }) as Record<string, unknown>;
  return schema;
}

/**
 * The result of every refused tool call: `isError: true`, structured content `{ code, message, next_step, details }`
 * (valid for every declared output schema), and a text block naming the code, message and next step.
 */
export function toolErrorResult(code: string, message: string, nextStep: string | undefined, details: Record<string, unknown>): CallToolResult {
  return refusalResult({ code, message, next_step: nextStep ?? null, details });
}

function refusalResult(refusal: ToolRefusal): CallToolResult {
  return { content: [{ type: 'text', text: refusalText(refusal) }], structuredContent: { ...refusal }, isError: true };
}

import { z } from 'zod';
import type { DomainError } from '../../domain/errors.js';
import { toolNextStepOf } from './tool-next-steps.js';

/**
 * The structured content of every refused tool call (policy_denied, approval_required, session_not_found,
 * invalid_arguments, ...). It is one branch of every tool's declared `outputSchema` (see `declaredOutputSchema`),
 * because 2025-11-25 server/tools says structured results MUST conform to the output schema, and clients that
 * check it (`@modelcontextprotocol/sdk` 1.x, the Inspector CLI) check refusals too.
 */
export const toolRefusalSchema = z.object({
  code: z.string().describe('Stable machine code of the refusal, e.g. policy_denied.'),
  message: z.string().describe('What went wrong, for a human or a model.'),
  next_step: z.string().nullable().describe('What to do about it; null when there is nothing to do.'),
  // `additionalProperties: true` says "a free-form object" outright (schema linters flag the `{}` zod writes by default).
  details: z
    .record(z.string(), z.unknown())
    .meta({ additionalProperties: true })
    .describe('Structured facts about the refusal (fields depend on code).'),
});

export type ToolRefusal = z.infer<typeof toolRefusalSchema>;

/**
 * A tool's declared output: each of its success shapes (the options of a union, or the one object), or the refusal
 * shape. MCP clients of the 2025-11-25 era require an object root (`type: "object"`), which a plain `anyOf` lacks,
 * so the root type is stated explicitly.
 */
export function declaredOutputSchema(output: z.ZodType): z.ZodType {
  const successes = output instanceof z.ZodUnion ? [...(output.options as readonly z.ZodType[])] : [output];
  return z.union([...successes, toolRefusalSchema]).meta({ type: 'object' });
}

/** The text block of a refusal: the code, the message and the next step, so a model that reads only text sees all three. */
export function refusalText(refusal: ToolRefusal): string {
  const first = `Error ${refusal.code}: ${refusal.message}`;
  return refusal.next_step === null ? first : `${first}\nNext step: ${refusal.next_step}`;
}

/**
 * The refusal of a typed error: its catalogue code, its message, its next step (the tool layer's where it names a
 * tool, tool-next-steps.ts) and its details. Nothing is decided from the message.
 */
export function refusalOf(error: DomainError): ToolRefusal {
  return {
    code: error.code,
    message: error.message,
    next_step: toolNextStepOf(error) ?? null,
    details: { ...error.details },
  };
}

/** What a model does about arguments that fail the tool's inputSchema. */
export const INVALID_ARGUMENTS_NEXT_STEP = 'Fix the arguments to match the tool inputSchema and call again.';

/** 2025-11-25 (SEP-1303): arguments that fail the tool's inputSchema are a refusal the model can correct. */
export function invalidArgumentsRefusal(error: z.ZodError): ToolRefusal {
  const issues = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  const summary = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
  return {
    code: 'invalid_arguments',
    message: `Invalid tool arguments: ${summary}`,
    next_step: INVALID_ARGUMENTS_NEXT_STEP,
    details: { issues },
  };
}

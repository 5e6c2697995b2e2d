import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

/**
 * Checks a tool result the way `@modelcontextprotocol/sdk` 1.x `Client.callTool` does: the structured content,
 * error or not, against the JSON Schema the tool declared in tools/list, with the SDK's own ajv validator.
 */
const validator = new AjvJsonSchemaValidator();
const compiled = new WeakMap<Record<string, unknown>, ReturnType<AjvJsonSchemaValidator['getValidator']>>();

/** The validation error message, or undefined when `structuredContent` conforms to `outputSchema`. */
export function outputSchemaProblem(
  outputSchema: Record<string, unknown>,
  structuredContent: unknown,
): string | undefined {
  let check = compiled.get(outputSchema);
  if (check === undefined) {
    check = validator.getValidator(outputSchema);
    compiled.set(outputSchema, check);
  }
  const result = check(structuredContent);
  return result.valid ? undefined : result.errorMessage;
}

/** Throws (naming the tool and the problem) when a result does not conform to the tool's declared output schema. */
export function assertConformsToOutputSchema(
  tool: { name: string; outputSchema: Record<string, unknown> },
  structuredContent: unknown,
): void {
  const problem = outputSchemaProblem(tool.outputSchema, structuredContent);
  if (problem !== undefined) {
    throw new Error(
      `${tool.name}: structured content does not match the declared outputSchema: ${problem}\n${JSON.stringify(structuredContent)}`,
    );
  }
}

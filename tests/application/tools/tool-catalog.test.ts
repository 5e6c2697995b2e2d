import { z } from 'zod';
import { InvalidArgument } from '../../../src/domain/errors';
import { ToolCatalog } from '../../../src/application/tools/tool-catalog';
import { defineTool } from '../../../src/application/tools/tool-definition';
import { UnknownTool } from '../../../src/application/tools/tool-errors';

const context = { signal: new AbortController().signal, era: 'modern' as const, principal: undefined };

const echo = defineTool({
  name: 'echo_text',
  title: 'Echo text',
  description: 'Returns its input.',
  input: z.object({ text: z.string().min(1) }).strict(),
  output: z.object({ echoed: z.string() }),
  annotations: { readOnlyHint: true },
  async call({ text }) {
    if (text === 'refuse') throw new InvalidArgument('refused on purpose', { text }, 'Send something else.');
    return { structured: { echoed: text } };
  },
});

describe('ToolCatalog', () => {
  const catalog = new ToolCatalog([echo]);

  test('describes tools with JSON Schemas derived from zod, strict inputs included', () => {
    const [descriptor] = catalog.list();
    expect(descriptor).toMatchObject({
      name: 'echo_text',
      title: 'Echo text',
      inputSchema: { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'], additionalProperties: false },
      outputSchema: { type: 'object', properties: { echoed: { type: 'string' } } },
      annotations: { title: 'Echo text', readOnlyHint: true },
    });
  });

  test('returns structured content and its JSON text on success', async () => {
    const result = await catalog.call('echo_text', { text: 'hi' }, context);
    expect(result).toEqual({ content: [{ type: 'text', text: JSON.stringify({ echoed: 'hi' }, null, 2) }], structuredContent: { echoed: 'hi' }, isError: false });
  });

  test('turns invalid arguments into an isError result naming the field', async () => {
    const result = await catalog.call('echo_text', { text: 'hi', extra: 1 }, context);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'invalid_arguments' });
    expect(result.content[0]?.text).toMatch(/extra/);
  });

  test('turns a domain error into an isError result with code, message and next step', async () => {
    const result = await catalog.call('echo_text', { text: 'refuse' }, context);
    expect(result).toEqual({
      content: [{ type: 'text', text: 'refused on purpose\nNext step: Send something else.' }],
      structuredContent: { code: 'invalid_argument', message: 'refused on purpose', next_step: 'Send something else.', details: { text: 'refuse' } },
      isError: true,
    });
  });

  test('an unknown tool is a protocol error, not a result', async () => {
    await expect(catalog.call('nope', {}, context)).rejects.toBeInstanceOf(UnknownTool);
  });

  test('duplicate tool names are refused at construction', () => {
    expect(() => new ToolCatalog([echo, echo])).toThrow(/Duplicate tool name/);
  });
});

import { z } from 'zod';
import { InvalidArgument } from '../../../src/domain/errors';
import { ToolCatalog } from '../../../src/application/tools/tool-catalog';
import { defineTool } from '../../../src/application/tools/tool-definition';
import { UnknownTool } from '../../../src/application/tools/tool-errors';
import { outputSchemaProblem } from '../../support/output-schema-check';

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
      outputSchema: {
        type: 'object',
        anyOf: [
          { type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'] },
          { type: 'object', required: ['code', 'message', 'next_step', 'details'] },
        ],
      },
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
      content: [{ type: 'text', text: 'Error invalid_argument: refused on purpose\nNext step: Send something else.' }],
      structuredContent: { code: 'invalid_argument', message: 'refused on purpose', next_step: 'Send something else.', details: { text: 'refuse' } },
      isError: true,
    });
  });

  test('every result it produces conforms to the declared outputSchema, as the v1 SDK client checks it', async () => {
    const [descriptor] = catalog.list();
    if (!descriptor) throw new Error('no descriptor');
    const results = [
      await catalog.call('echo_text', { text: 'hi' }, context),
      await catalog.call('echo_text', { text: 'refuse' }, context),
      await catalog.call('echo_text', { text: '' }, context),
      await catalog.call('echo_text', undefined, context),
    ];
    expect(results.map((result) => result.isError)).toEqual([false, true, true, true]);
    for (const result of results) expect(outputSchemaProblem(descriptor.outputSchema, result.structuredContent)).toBeUndefined();
  });

  test('the declared outputSchema still rejects content that is neither a success nor a refusal', () => {
    const [descriptor] = catalog.list();
    if (!descriptor) throw new Error('no descriptor');
    expect(outputSchemaProblem(descriptor.outputSchema, { echoed: 1 })).toBeDefined();
    expect(outputSchemaProblem(descriptor.outputSchema, { code: 'x', message: 'y' })).toBeDefined();
  });

  test('a refusal without a next step names its code and message only', async () => {
    const bare = defineTool({ ...echo, name: 'bare', async call() { throw new InvalidArgument('nothing to do'); } });
    const result = await new ToolCatalog([bare]).call('bare', { text: 'x' }, context);
    expect(result.content).toEqual([{ type: 'text', text: 'Error invalid_argument: nothing to do' }]);
    expect(result.structuredContent).toEqual({ code: 'invalid_argument', message: 'nothing to do', next_step: null, details: {} });
  });

  test('an unknown tool is a protocol error, not a result', async () => {
    await expect(catalog.call('nope', {}, context)).rejects.toBeInstanceOf(UnknownTool);
  });

  test('duplicate tool names are refused at construction', () => {
    expect(() => new ToolCatalog([echo, echo])).toThrow(/Duplicate tool name/);
  });
});

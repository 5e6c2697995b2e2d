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

  test('describes tools with strict input schemas derived from zod and a compact object outputSchema', () => {
    const [descriptor] = catalog.list();
    expect(descriptor).toEqual({
      name: 'echo_text',
      title: 'Echo text',
      description: 'Returns its input.',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', minLength: 1 } },
        required: ['text'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    });
  });

  test('keeps the full output contract, every success shape and the refusal shape, off the wire', () => {
    expect(catalog.outputContract('echo_text')).toMatchObject({
      type: 'object',
      anyOf: [
        { type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'] },
        { type: 'object', required: ['code', 'message', 'next_step', 'details'] },
      ],
    });
    expect(() => catalog.outputContract('nope')).toThrow(UnknownTool);
  });

  test('drops the meaningless safe-integer bounds and $schema from input schemas, keeping real bounds', () => {
    const counted = defineTool({
      ...echo,
      name: 'counted',
      input: z.object({ count: z.number().int().min(1), any: z.number().int() }).strict(),
    });
    const [descriptor] = new ToolCatalog([counted]).list();
    expect(descriptor?.inputSchema).toEqual({
      type: 'object',
      properties: { count: { type: 'integer', minimum: 1 }, any: { type: 'integer' } },
      required: ['count', 'any'],
      additionalProperties: false,
    });
  });

  test('returns structured content and its JSON text on success', async () => {
    const result = await catalog.call('echo_text', { text: 'hi' }, context);
    expect(result).toEqual({
      content: [{ type: 'text', text: JSON.stringify({ echoed: 'hi' }, null, 2) }],
      structuredContent: { echoed: 'hi' },
      isError: false,
    });
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
      structuredContent: {
        code: 'invalid_argument',
        message: 'refused on purpose',
        next_step: 'Send something else.',
        details: { text: 'refuse' },
      },
      isError: true,
    });
  });

  test('every result it produces conforms to the output contract and to the published outputSchema', async () => {
    const [descriptor] = catalog.list();
    if (!descriptor) throw new Error('no descriptor');
    const contract = catalog.outputContract('echo_text');
    const results = [
      await catalog.call('echo_text', { text: 'hi' }, context),
      await catalog.call('echo_text', { text: 'refuse' }, context),
      await catalog.call('echo_text', { text: '' }, context),
      await catalog.call('echo_text', undefined, context),
    ];
    expect(results.map((result) => result.isError)).toEqual([false, true, true, true]);
    for (const result of results) {
      expect(outputSchemaProblem(contract, result.structuredContent)).toBeUndefined();
      expect(outputSchemaProblem(descriptor.outputSchema, result.structuredContent)).toBeUndefined();
    }
  });

  test('the output contract rejects content that is neither a success nor a refusal', () => {
    const contract = catalog.outputContract('echo_text');
    expect(outputSchemaProblem(contract, { echoed: 1 })).toBeDefined();
    expect(outputSchemaProblem(contract, { code: 'x', message: 'y' })).toBeDefined();
  });

  test('a refusal without a next step names its code and message only', async () => {
    const bare = defineTool({
      ...echo,
      name: 'bare',
      async call() {
        throw new InvalidArgument('nothing to do');
      },
    });
    const result = await new ToolCatalog([bare]).call('bare', { text: 'x' }, context);
    expect(result.content).toEqual([{ type: 'text', text: 'Error invalid_argument: nothing to do' }]);
    expect(result.structuredContent).toEqual({
      code: 'invalid_argument',
      message: 'nothing to do',
      next_step: null,
      details: {},
    });
  });

  test('an unknown tool is a protocol error, not a result', async () => {
    await expect(catalog.call('nope', {}, context)).rejects.toBeInstanceOf(UnknownTool);
  });

  test('duplicate tool names are refused at construction', () => {
    expect(() => new ToolCatalog([echo, echo])).toThrow(/Duplicate tool name/);
  });
});

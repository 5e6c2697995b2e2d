import { serializedOnce, serializeMessage } from '../../../src/application/mcp/serialized-once.js';

describe('serializedOnce / serializeMessage', () => {
  const tools = () => [
    {
      name: 'a',
      inputSchema: { type: 'object', properties: { x: { type: 'string', description: 'quote " and \\ and \u2028' } } },
    },
    { name: 'b', inputSchema: { type: 'object' } },
  ];

  it('writes exactly what JSON.stringify writes for the plain value', () => {
    const part = serializedOnce(tools());
    const message = { jsonrpc: '2.0', id: 7, result: { tools: part, nextCursor: 'c', _meta: { n: 1 } } };
    const plain = { jsonrpc: '2.0', id: 7, result: { tools: tools(), nextCursor: 'c', _meta: { n: 1 } } };
    expect(serializeMessage(message)).toBe(JSON.stringify(plain));
    expect(JSON.parse(serializeMessage(message))).toEqual(plain);
  });

  it('stays an ordinary frozen array in memory and for any other JSON.stringify', () => {
    const part = serializedOnce(tools());
    expect(Array.isArray(part)).toBe(true);
    expect(Object.isFrozen(part)).toBe(true);
    expect(Object.keys(part)).toEqual(['0', '1']);
    expect(part).toEqual(tools());
    expect(JSON.stringify({ tools: part })).toBe(JSON.stringify({ tools: tools() }));
  });

  it('reuses the text of the first serialization (the catalog is static, so it is never rebuilt)', () => {
    const items = tools();
    const part = serializedOnce(items);
    const first = serializeMessage({ result: { tools: part } });
    (items[1] as { name: string }).name = 'changed after the first answer';
    expect(serializeMessage({ result: { tools: part } })).toBe(first);
    // Outside serializeMessage the live value is written, so nothing else depends on the cache.
    expect(JSON.stringify(part)).toContain('changed after the first answer');
  });

  it('splices several parts, in place, in one message', () => {
    const one = serializedOnce([1, 2]);
    const two = serializedOnce(['x']);
    const message = { a: one, b: [two, one], c: 'end' };
    expect(serializeMessage(message)).toBe('{"a":[1,2],"b":[["x"],[1,2]],"c":"end"}');
  });

  it('leaves a client string that imitates the placeholder untouched', () => {
    const part = serializedOnce([1]);
    const sneaky = '\u0000term-mcp-serialized-0:0';
    const text = serializeMessage({ echo: sneaky, tools: part, again: `${sneaky}"` });
    expect(JSON.parse(text)).toEqual({ echo: sneaky, tools: [1], again: `${sneaky}"` });
  });

  it('is left clean after a value that cannot be serialized', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => serializeMessage({ tools: serializedOnce([1]), cyclic })).toThrow(TypeError);
    expect(JSON.stringify({ tools: serializedOnce([1]) })).toBe('{"tools":[1]}');
  });
});

import { canonicalJson } from '../../../src/adapters/receipts/canonical-json';

describe('canonicalJson', () => {
  test("equals Python's json.dumps(sort_keys=True, separators=(',', ':')) byte for byte", () => {
    const value = { b: 1, a: { z: [1, 'é', null, true], y: 'line\nquote" back\\ tab\t ctrl\u0001 emoji 😀' }, c: -3 };
    // Produced by CPython 3 with exactly that json.dumps call.
    const python =
      '{"a":{"y":"line\\nquote\\" back\\\\ tab\\t ctrl\\u0001 emoji \\ud83d\\ude00","z":[1,"\\u00e9",null,true]},"b":1,"c":-3}';
    expect(canonicalJson(value)).toBe(python);
  });

  test('sorts keys at every depth, inside arrays too', () => {
    expect(canonicalJson([{ b: 2, a: 1 }, { d: { y: 0, x: 0 } }])).toBe('[{"a":1,"b":2},{"d":{"x":0,"y":0}}]');
  });

  test('leaves out undefined properties, as JSON does', () => {
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
  });
});

/**
 * The byte-exact form receipts are signed over, equal to Python's
 * `json.dumps(value, sort_keys=True, separators=(",", ":"))` (ensure_ascii: non-ASCII as lowercase `\uXXXX`), so
 * receipts verify across the seed and this server. Integers print alike in both; receipts carry no floats.
 */
export function canonicalJson(value: unknown): string {
  return escapeNonAscii(JSON.stringify(sortKeys(value)));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, item]) => [key, sortKeys(item)]));
  }
  return value;
}

/** Outside strings JSON is pure ASCII, so escaping every non-ASCII UTF-16 unit only touches string contents. */
function escapeNonAscii(json: string): string {
  return json.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

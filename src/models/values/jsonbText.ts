/**
 * A JSON value as PostgreSQL prints a `jsonb` column as text, which is what NetBox's
 * case-insensitive "contains" search over a JSON field compares against: `": "` and
 * `", "` separators, and object keys in jsonb's order (shorter keys first, then by
 * their UTF-8 bytes).
 */
export function jsonbText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort(jsonbKeyOrder);
    return `{${keys.map((k) => `${JSON.stringify(k)}: ${jsonbText((value as Record<string, unknown>)[k])}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const utf8 = new TextEncoder();

function jsonbKeyOrder(a: string, b: string): number {
  const [x, y] = [utf8.encode(a), utf8.encode(b)];
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/**
 * The merge NetBox applies to config context data: `update` into `original`, giving a new
 * object. A key both hold is merged recursively only when both values are objects and the
 * update's is not empty; otherwise the update's value replaces it (lists are replaced, not
 * joined, and an empty object clears the key's object). Keys keep their first position,
 * new ones follow. Neither input is changed; unchanged branches are shared.
 */
export type JsonObject = { [key: string]: unknown };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepMerge(original: JsonObject, update: JsonObject): JsonObject {
  // A Map, then fromEntries: a key named "__proto__" stays a key (assignment would set the prototype).
  const merged = new Map<string, unknown>(Object.entries(original));
  for (const [key, value] of Object.entries(update)) {
    const before = merged.get(key);
    const recurse = Object.hasOwn(original, key) && isJsonObject(before) && isJsonObject(value) && Object.keys(value).length > 0;
    merged.set(key, recurse ? deepMerge(before, value) : value);
  }
  return Object.fromEntries(merged);
}

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
  return mergeAll([original, update]);
}

/**
 * `{}` merged with each of `objects` in turn, as repeated `deepMerge` would give it, at a
 * fraction of the cost: the result is built in place, and a branch of an input is copied
 * only when a later object merges into it (the inputs are never changed).
 */
export function mergeAll(objects: readonly JsonObject[]): JsonObject {
  const owned = new Set<object>();
  const out: JsonObject = {};
  owned.add(out);
  for (const object of objects) mergeInto(out, object, owned);
  return out;
}

/** Merges `update` into `target`, which this merge owns; objects in `owned` may be changed, others are copied first. */
function mergeInto(target: JsonObject, update: JsonObject, owned: Set<object>): void {
  for (const key of Object.keys(update)) {
    const value = update[key];
    const before = Object.hasOwn(target, key) ? target[key] : undefined;
    if (isJsonObject(before) && isJsonObject(value) && hasKeys(value)) {
      const into = owned.has(before) ? before : copyOf(before, owned);
      mergeInto(into, value, owned);
      if (into !== before) setKey(target, key, into);
    } else {
      setKey(target, key, value);
    }
  }
}

function copyOf(object: JsonObject, owned: Set<object>): JsonObject {
  const copy: JsonObject = {};
  for (const key of Object.keys(object)) setKey(copy, key, object[key]);
  owned.add(copy);
  return copy;
}

function hasKeys(object: JsonObject): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return true;
  return false;
}

/** An own data property, also for a key named "__proto__" (assigning that one would set the prototype). */
function setKey(object: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

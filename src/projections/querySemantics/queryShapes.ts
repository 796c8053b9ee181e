/** What kind of value a query member or a document value is, as the indexes and the planner see it. */

/** A value an equality index can key (NaN excluded: it equals nothing). */
export type Scalar = string | number | boolean;

export function isIndexable(v: unknown): v is Scalar {
  const t = typeof v;
  return t === 'string' || t === 'boolean' || (t === 'number' && !Number.isNaN(v));
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export function isOperatorObject(v: unknown): v is Record<string, unknown> {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  if (keys.length === 0) return false;
  for (const k of keys) if (k.charCodeAt(0) !== 36 /* $ */) return false;
  return true;
}

/**
 * Immutability of stored documents: a document is cloned and deep-frozen once when
 * applied, and that frozen object is what every read returns (no copy per read). A
 * caller trying to mutate a returned document gets a TypeError (ESM code is strict) and
 * the store is never corrupted. structuredClone per read costs several µs per document
 * (see bench/readStore.bench.ts), freezing costs nothing on reads.
 * Caveat: Date instances are frozen but `setTime` still works on them; documents are
 * expected to hold JSON values.
 */
import { isPlainObject } from '../querySemantics/queryShapes.js';

/** Deep copy of JSON-like data, frozen; undefined object members are dropped (as MongoDB does). */
export function freezeClone<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = v[i] === undefined ? null : freezeClone(v[i]);
    return Object.freeze(out) as T;
  }
  if (v instanceof Date) return Object.freeze(new Date(v.getTime())) as T;
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const x = v[k];
      if (x !== undefined) out[k] = freezeClone(x);
    }
    return Object.freeze(out) as T;
  }
  // Typed arrays and other exotic values: a private copy (typed arrays cannot be frozen).
  return structuredClone(v);
}

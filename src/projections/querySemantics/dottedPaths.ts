/** Reading documents along dotted paths ('assigned.type') with MongoDB's treatment of arrays. */
import type { ReadDocument } from '../ReadStore.js';

/**
 * Values reachable at a dotted path, MongoDB style: arrays met on the way are
 * traversed, an array at the end contributes its elements.
 */
export function collectPath(value: unknown, parts: string[], i: number, out: unknown[], st: { array: boolean }): void {
  if (i === parts.length) {
    if (Array.isArray(value)) {
      st.array = true;
      for (const el of value) out.push(el);
    } else out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    st.array = true;
    const part = parts[i]!;
    if (/^\d+$/.test(part)) {
      collectPath(value[Number(part)], parts, i + 1, out, st);
      return;
    }
    for (const el of value) {
      if (el !== null && typeof el === 'object' && !Array.isArray(el)) {
        collectPath((el as Record<string, unknown>)[part], parts, i + 1, out, st);
      }
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    collectPath((value as Record<string, unknown>)[parts[i]!], parts, i + 1, out, st);
    return;
  }
  out.push(undefined);
}

/** Whether an array is met on the path or at its end (the value is then multi-valued). */
export function hasArrayOnPath(doc: ReadDocument, parts: string[]): boolean {
  let v: unknown = doc;
  for (const p of parts) {
    if (Array.isArray(v)) return true;
    if (v === null || typeof v !== 'object') return false;
    v = (v as Record<string, unknown>)[p];
  }
  return Array.isArray(v);
}

/** Whether the path ends on an empty array (which sorts before null, unlike a missing value). */
export function terminalIsEmptyArray(doc: ReadDocument, parts: string[]): boolean {
  let v: unknown = doc;
  for (const p of parts) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
    v = (v as Record<string, unknown>)[p];
  }
  return Array.isArray(v) && v.length === 0;
}

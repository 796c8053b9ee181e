/**
 * The source's objects of read-only models (a cable's terminations), which the import
 * derives again from the objects it writes: found by what the deriving follow-up writes,
 * so each keeps the id and times the source gave it. Without this a termination's id
 * would be allocated afresh, and differ wherever the source deleted or re-terminated a
 * cable before.
 */
import type { DerivedObjects } from '../commands/importObjects.js';

export function derivedObjectsOf(
  sourceObjects: ReadonlyMap<string, ReadonlyArray<Record<string, unknown>>>,
): DerivedObjects {
  /** model → the input's field names → key of their values → the source's object. */
  const indexes = new Map<string, Map<string, Map<string, Record<string, unknown>>>>();
  const indexOf = (model: string, names: string[]) => {
    const byModel = indexes.get(model) ?? new Map<string, Map<string, Record<string, unknown>>>();
    indexes.set(model, byModel);
    const signature = names.join(',');
    let index = byModel.get(signature);
    if (!index) {
      index = new Map();
      for (const object of sourceObjects.get(model) ?? [])
        index.set(keyOf(names.map((name) => written(object[name]))), object);
      byModel.set(signature, index);
    }
    return index;
  };
  return {
    find(model, input) {
      if (!sourceObjects.has(model)) return undefined;
      const names = Object.keys(input).sort();
      const object = indexOf(model, names).get(keyOf(names.map((name) => input[name])));
      if (!object) return undefined;
      return { id: Number(object.id), created: timeOf(object.created), lastUpdated: timeOf(object.last_updated) };
    },
  };
}

/** A rendered value as written: a nested object by its id, a choice by its value. */
function written(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const nested = value as { id?: unknown; value?: unknown };
    if (typeof nested.id === 'number') return nested.id;
    if (Object.hasOwn(nested, 'value')) return nested.value;
  }
  return value;
}

function keyOf(values: unknown[]): string {
  return JSON.stringify(values);
}

function timeOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

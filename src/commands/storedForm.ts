import type { StoredObject } from '../models/storedObject.js';

/** A read document without what the projection added (display, `_pos`, hidden derived keys). */
export function storedForm(doc: Record<string, unknown>): StoredObject {
  const obj: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'display' || key.startsWith('_')) continue;
    obj[key] = value;
  }
  return obj as StoredObject;
}

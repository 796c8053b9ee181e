import type { StoredObject } from '../models/storedObject.js';

/** A read document without what the projection added (display, `_pos`, hidden derived keys). */
export function storedForm(doc: Record<string, unknown>): StoredObject {
  const obj: Record<string, unknown> = {};
  // Keys, not entries: an update reads every object it changes through here, and the pairs were garbage.
  for (const key of Object.keys(doc)) {
    if (key === 'display' || key.charCodeAt(0) === 95 /* _ */) continue;
    obj[key] = doc[key];
  }
  return obj as StoredObject;
}

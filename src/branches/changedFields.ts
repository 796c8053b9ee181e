import { isDeepStrictEqual } from 'node:util';

import type { ChangeEvent } from '../events/ChangeEvent.js';

/**
 * The fields an update changed, with their new values: what replaying it onto another
 * version of the object (the branch's view after a sync, main at a merge) carries over,
 * leaving the fields others changed meanwhile as they are there.
 */
export function changedFields(change: ChangeEvent): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const before = change.prechange ?? {};
  for (const [field, value] of Object.entries(change.postchange ?? {}))
    if (!isDeepStrictEqual(before[field], value)) out[field] = value;
  return out;
}

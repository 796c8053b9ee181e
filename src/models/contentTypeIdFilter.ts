import type { FilterSpec } from './types.js';
import { MATCH_NOTHING } from './matchNothing.js';

/**
 * A content type named by its numeric id (NetBox's `<field>_id` of a content-type foreign
 * key), for a `content_type` field storing '<app>.<model>'. An id naming no model matches
 * nothing; `__n` excludes.
 */
export function contentTypeIdFilter(field: string): FilterSpec {
  return {
    kind: 'method',
    value: 'integer',
    lookups: ['n'],
    method: (ids, env) => {
      const keys = ids.flatMap((id) => env.contentTypeKey(Number(id)) ?? []);
      if (env.lookup === 'n') return { [field]: { $nin: keys } };
      return keys.length ? { [field]: { $in: keys } } : MATCH_NOTHING;
    },
  };
}

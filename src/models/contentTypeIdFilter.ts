import type { FilterSpec } from './types.js';

/**
 * A content type named by its numeric id (NetBox's `<field>_id` of a content-type foreign
 * key), for a `content_type` field storing '<app>.<model>'. An id naming no model is
 * refused as NetBox refuses an unknown choice; `__n` excludes.
 */
export function contentTypeIdFilter(field: string): FilterSpec {
  return {
    kind: 'method',
    value: 'integer',
    lookups: ['n'],
    method: (ids, env) => {
      const keys = ids.map((id) => env.contentTypeKey(Number(id)) ?? env.invalid(`Select a valid choice. ${String(id)} is not one of the available choices.`));
      return { [field]: env.lookup === 'n' ? { $nin: keys } : { $in: keys } };
    },
  };
}

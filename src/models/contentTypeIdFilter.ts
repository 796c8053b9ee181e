import type { FilterSpec } from './filterTypes.js';

/**
 * A content type named by its numeric id (NetBox's `<field>_id` of a content-type foreign
 * key), for a `content_type` field storing '<app>.<model>'. An id naming no model is
 * refused as NetBox refuses an unknown choice; `__n` excludes. With `numeric` the filter is
 * NetBox's number filter on the types' ids (`content_types__id` of a list of types): an id
 * naming no model is a number like any other and matches nothing. Without it the filter is
 * NetBox's ModelChoiceFilter, one content type (the last value given), or with `several` its
 * ModelMultipleChoiceFilter.
 */
export function contentTypeIdFilter(field: string, options: { numeric?: boolean; several?: boolean } = {}): FilterSpec {
  return {
    kind: 'method',
    value: 'integer',
    lookups: ['n'],
    ...(options.numeric || options.several ? {} : { single: true, netboxReads: 'object' as const }),
    method: (ids, env) => {
      const keys: string[] = [];
      for (const id of ids) {
        const key = env.contentTypeKey(Number(id));
        if (key) keys.push(key);
        else if (!options.numeric)
          env.invalid(`Select a valid choice. ${String(id)} is not one of the available choices.`);
      }
      return { [field]: env.lookup === 'n' ? { $nin: keys } : { $in: keys } };
    },
  };
}

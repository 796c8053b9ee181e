import type { FilterSpec } from './filterTypes.js';
import { IGNORE, parseInteger } from './values/filterValues.js';

/**
 * A content type named by its numeric id (NetBox's `<field>_id` of a content-type foreign
 * key), for a `content_type` field storing '<app>.<model>'. It is NetBox's model choice
 * filter: an id naming no model is refused as NetBox refuses an unknown choice, 'null'
 * (django-filter's null choice) selects objects without a type; `__n` excludes. With
 * `numeric` the filter is NetBox's number filter on the types' ids (`content_types__id` of
 * a list of types): an id naming no model is a number like any other and matches nothing,
 * and 'null' is no number.
 */
export function contentTypeIdFilter(field: string, options: { numeric?: boolean } = {}): FilterSpec {
  return {
    kind: 'method',
    value: 'string',
    lookups: ['n'],
    method: (values, env) => {
      const keys: Array<string | null> = [];
      for (const value of values) {
        if (value === 'null' && !options.numeric) {
          keys.push(null);
          continue;
        }
        const parsed = parseInteger(String(value));
        if (parsed === IGNORE || !parsed.ok)
          return env.invalid(parsed === IGNORE ? 'Enter a whole number.' : parsed.message);
        const key = env.contentTypeKey(parsed.value);
        if (key) keys.push(key);
        else if (!options.numeric)
          env.invalid(`Select a valid choice. ${String(value)} is not one of the available choices.`);
      }
      return { [field]: env.lookup === 'n' ? { $nin: keys } : { $in: keys } };
    },
  };
}

import type { FilterSpec } from './filterTypes.js';
import { IGNORE, parseInteger, UNKNOWN_CHOICE } from './values/filterValues.js';

/**
 * A content type named by its numeric id (NetBox's `<field>_id` of a content-type foreign
 * key), for a `content_type` field storing '<app>.<model>'. It is NetBox's model choice
 * filter: an id naming no model is refused as NetBox refuses an unknown choice, 'null'
 * (django-filter's null choice) selects objects without a type; `__n` excludes. With
 * `numeric` the filter is NetBox's number filter on the types' ids (`content_types__id` of
 * a list of types): an id naming no model is a number like any other and matches nothing,
 * and 'null' is no number. With `single` it is the model choice filter NetBox generates for
 * a `<field>_id` of its filter set's fields: the last value counts, and anything it cannot
 * take is ModelChoiceField's "That choice" (no value quoted).
 */
export function contentTypeIdFilter(field: string, options: { numeric?: boolean; single?: boolean } = {}): FilterSpec {
  return {
    kind: 'method',
    value: 'string',
    lookups: ['n'],
    single: options.single === true,
    // NetBox's GraphQL types a model choice filter's argument as one String.
    ...(options.single ? { netboxReads: 'object' as const } : {}),
    method: (values, env) => {
      const keys: Array<string | null> = [];
      for (const value of values) {
        if (value === 'null' && !options.numeric) {
          keys.push(null);
          continue;
        }
        const parsed = parseInteger(String(value));
        if (parsed === IGNORE || !parsed.ok)
          return env.invalid(
            options.single ? UNKNOWN_CHOICE : parsed === IGNORE ? 'Enter a whole number.' : parsed.message,
          );
        const key = env.contentTypeKey(parsed.value);
        if (key) keys.push(key);
        else if (!options.numeric)
          env.invalid(
            options.single
              ? UNKNOWN_CHOICE
              : `Select a valid choice. ${String(value)} is not one of the available choices.`,
          );
      }
      return { [field]: env.lookup === 'n' ? { $nin: keys } : { $in: keys } };
    },
  };
}

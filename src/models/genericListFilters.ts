import type { MethodFilterSpec } from './filterTypes.js';

/**
 * List filters over a generic_list field: objects listing an item of the given type
 * (`<param>_type`, e.g. a cable's `termination_a_type=dcim.interface`, one value as NetBox's
 * ContentTypeFilter takes; `__n` for another; a value that is no '<app_label>.<model>' names
 * no type), and objects listing an item with one of the given ids (`<param>_id`).
 * Declared in a model's `filters` under the names NetBox uses.
 */
export function genericListFilters(field: string): { type: MethodFilterSpec; id: MethodFilterSpec } {
  return {
    type: {
      kind: 'method',
      lookups: ['n'],
      single: true,
      method: (values, env) => {
        // NetBox's ContentTypeFilter: '<app_label>.<model>' in any letter case; a text it cannot
        // split so selects nothing (never a 400)
        const types = values.map((v) => String(v).toLowerCase()).filter((v) => v.split('.').length === 2);
        const listed = { [field]: { $elemMatch: { object_type: { $in: types } } } };
        return env.lookup === 'n' ? { $nor: [listed] } : listed;
      },
    },
    id: {
      kind: 'method',
      value: 'integer',
      method: (values) => ({ [field]: { $elemMatch: { object_id: { $in: values } } } }),
    },
  };
}

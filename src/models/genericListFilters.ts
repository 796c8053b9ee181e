import type { MethodFilterSpec } from './filterTypes.js';
import { invalidChoice } from './values/filterValues.js';

/**
 * List filters over a generic_list field: objects listing an item of the given type
 * (`<param>_type`, e.g. a cable's `termination_a_type=dcim.interface`, one value as NetBox's
 * ContentTypeFilter takes; `__n` for another), and objects listing an item with one of the
 * given ids (`<param>_id`).
 * Declared in a model's `filters` under the names NetBox uses.
 */
export function genericListFilters(field: string): { type: MethodFilterSpec; id: MethodFilterSpec } {
  return {
    type: {
      kind: 'method',
      lookups: ['n'],
      single: true,
      method: (values, env) => {
        const bad = values.find((v) => typeof v !== 'string' || !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(v));
        if (bad !== undefined) env.invalid(invalidChoice(String(bad)));
        const listed = { [field]: { $elemMatch: { object_type: { $in: values } } } };
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

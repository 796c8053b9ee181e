import type { MethodFilterSpec } from './types.js';

/**
 * List filters over a generic_list field: objects listing an item of one of the given
 * types (`<param>_type`, e.g. a cable's `termination_a_type=dcim.interface`), and
 * objects listing an item with one of the given ids (`<param>_id`). Declared in a
 * model's `filters` under the names NetBox uses.
 */
export function genericListFilters(field: string): { type: MethodFilterSpec; id: MethodFilterSpec } {
  return {
    type: {
      kind: 'method',
      method: (values, env) => {
        const bad = values.find((v) => typeof v !== 'string' || !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(v));
        if (bad !== undefined) env.invalid(`Select a valid choice. ${String(bad)} is not one of the available choices.`);
        return { [field]: { $elemMatch: { object_type: { $in: values } } } };
      },
    },
    id: {
      kind: 'method',
      value: 'integer',
      method: (values) => ({ [field]: { $elemMatch: { object_id: { $in: values } } } }),
    },
  };
}

import type { FilterEnvironment, FilterSpec } from './types.js';

/**
 * A boolean filter on whether at least one `model` object points here through `via`
 * (a device type's interface templates, a device's module bays): true keeps the holders,
 * false the others.
 */
export function hasRelated(model: string, via: string): FilterSpec {
  return {
    kind: 'method',
    value: 'boolean',
    single: true,
    method: async ([has]: Array<string | number | boolean>, env: FilterEnvironment) => {
      const holders = [...new Set((await env.find(model, { [via]: { $ne: null } })).map((o) => o[via]))];
      return has ? { id: { $in: holders } } : { id: { $nin: holders } };
    },
  };
}

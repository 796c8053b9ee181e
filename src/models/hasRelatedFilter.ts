import type { FilterEnvironment, FilterSpec } from './filterTypes.js';

/**
 * A boolean filter on whether objects of `models` point here through `via` (a device's
 * console ports, a device type's interface templates, a device's module bays): true keeps
 * holders of at least one object of any of the models. False drops holders of objects of
 * every one of them: NetBox excludes on each relation in one call, so a patch panel with
 * rear ports only counts as without pass-through ports.
 */
export function hasRelated(models: string | string[], via: string): FilterSpec {
  const list = typeof models === 'string' ? [models] : models;
  return {
    kind: 'method',
    value: 'boolean',
    single: true,
    async method([has], env: FilterEnvironment) {
      const holdersPerModel: Array<Set<unknown>> = [];
      for (const model of list) {
        const objects = await env.find(model, { [via]: { $ne: null } });
        holdersPerModel.push(new Set(objects.map((o) => o[via])));
      }
      if (has) return { id: { $in: [...new Set(holdersPerModel.flatMap((holders) => [...holders]))] } };
      const [first, ...rest] = holdersPerModel;
      const inAll = [...(first ?? [])].filter((holder) => rest.every((holders) => holders.has(holder)));
      return { id: { $nin: inAll } };
    },
  };
}

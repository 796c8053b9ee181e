import type { FilterEnvironment, FilterSpec, StoredObject } from '../types.js';

/**
 * A boolean filter on a parent (device, device type) by the components it holds of some
 * models, each naming the parent in `via`: true keeps parents with a component of any of
 * them; false drops parents with components of all of them (NetBox excludes on each
 * relation separately, so a patch panel with only rear ports counts as without pass-through ports).
 */
export function componentPresenceFilter(models: string[], via: string): FilterSpec {
  return {
    kind: 'method',
    value: 'boolean',
    single: true,
    async method([has], env: FilterEnvironment) {
      const holdersPerModel: Array<Set<unknown>> = [];
      for (const model of models) {
        const components: StoredObject[] = await env.find(model, {});
        holdersPerModel.push(new Set(components.map((component) => component[via])));
      }
      if (has) return { id: { $in: [...new Set(holdersPerModel.flatMap((holders) => [...holders]))] } };
      const [first, ...rest] = holdersPerModel;
      const inAll = [...(first ?? [])].filter((holder) => rest.every((holders) => holders.has(holder)));
      return { id: { $nin: inAll } };
    },
  };
}

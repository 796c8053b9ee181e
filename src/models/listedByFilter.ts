import { existingIds } from './filterSpecs.js';
import type { FilterSpec } from './filterTypes.js';

/**
 * A filter over the other side of a many-to-many field that another model holds (an
 * ASN's `site_id`: the sites whose `asns` list it; a route target's `importing_vrf`: the
 * VRFs whose `import_targets` list it). The values name `holder` objects by `by` (id,
 * slug, rd ...); an unknown one is a 400, as for any related filter. `__n` keeps the
 * objects none of the named holders lists.
 */
export function listedBy(holder: string, field: string, by = 'id'): FilterSpec {
  return {
    kind: 'method',
    value: by === 'id' ? 'integer' : 'string',
    lookups: ['n'],
    async method(values, env) {
      const holders = await existingIds(env, holder, by, values);
      const docs = holders.length ? await env.find(holder, { id: { $in: holders } }) : [];
      const listed = [...new Set(docs.flatMap((d) => (Array.isArray(d[field]) ? (d[field] as number[]) : [])))];
      return env.lookup === 'n' ? { id: { $nin: listed } } : { id: { $in: listed } };
    },
  };
}

/**
 * Circuits (and providers) found by where circuits end: a filter whose values name
 * objects reached from one of a circuit's terminations (its provider network, its site,
 * the site's region). The relation runs from the termination to the circuit, so the
 * related-filter paths (which follow the filtered model's own fields) cannot express it.
 */
import type { FilterEnvironment, FilterSpec } from '../filterTypes.js';
import { invalidChoice, invalidPk } from '../values/filterValues.js';

const TERMINATION = 'circuits.circuittermination';
const MAX_TREE_DEPTH = 1000;

/** One step from a termination towards the target: objects of `model` reached through its `field`. */
interface Step {
  model: string;
  field: string;
}

interface EndFilter {
  /** The model the values name. */
  target: string;
  /** 'id' or the target's attribute the values are matched against (e.g. 'slug'). */
  by: 'id' | 'slug';
  /** From the termination to the target, e.g. [{model: termination, field: 'site'}, {model: 'dcim.site', field: 'region'}]. */
  steps: Step[];
  /** Tree targets: a value also names every descendant. */
  includeDescendants?: boolean;
  /** The filtered model: the circuits themselves (default) or their providers. */
  of?: 'circuit' | 'provider';
}

/**
 * Circuits with a termination leading to one of the named objects; `__n` the others.
 * 'null' names circuits with a termination leading nowhere, and circuits without
 * terminations (NetBox's isnull over the join). Unknown values are a 400, as NetBox's
 * model choice filters answer.
 */
export function circuitsEndingAt(spec: EndFilter): FilterSpec {
  return {
    kind: 'method',
    lookups: ['n'],
    includeDescendants: spec.includeDescendants,
    method: async (values, env) => {
      const texts = [...new Set(values.map(String))];
      const named = texts.filter((v) => v !== 'null');
      const targets = await resolve(spec, named, env);
      let circuits = await circuitsReaching(spec.steps, targets, false, env);
      const orNull = named.length < texts.length;
      if (orNull) {
        const nowhere = await circuitsReaching(spec.steps, [], true, env);
        const terminated = new Set((await env.find(TERMINATION, {})).map((t) => t.circuit));
        const bare = await env.ids('circuits.circuit', { id: { $nin: [...terminated] } });
        circuits = [...new Set([...circuits, ...nowhere, ...bare])];
      }
      const matched = spec.of === 'provider' ? await providersOf(circuits, orNull, env) : circuits;
      return env.lookup === 'n' ? { id: { $nin: matched } } : { id: { $in: matched } };
    },
  };
}

/** The target ids the values name (with their descendants for trees); an unknown value refuses the filter. */
async function resolve(spec: EndFilter, values: string[], env: FilterEnvironment): Promise<number[]> {
  if (values.length === 0) return [];
  let wanted: unknown[] = values;
  if (spec.by === 'id') {
    wanted = values.map((v) => {
      if (!/^\s*-?\d+\s*$/.test(v)) env.invalid(invalidPk(v));
      return Number(v);
    });
  }
  const found = await env.find(spec.target, { [spec.by]: { $in: wanted } });
  const present = new Set(found.map((d) => d[spec.by]));
  values.forEach((v, i) => {
    if (!present.has(wanted[i])) env.invalid(invalidChoice(v));
  });
  const roots = found.map((d) => d.id);
  return spec.includeDescendants ? withDescendants(spec.target, roots, env) : roots;
}

async function withDescendants(model: string, roots: number[], env: FilterEnvironment): Promise<number[]> {
  const all = new Set(roots);
  let frontier = roots;
  for (let depth = 0; depth < MAX_TREE_DEPTH && frontier.length > 0; depth++) {
    frontier = (await env.ids(model, { parent: { $in: frontier } })).filter((id) => !all.has(id));
    for (const id of frontier) all.add(id);
  }
  return [...all];
}

/** Circuits having a termination whose steps lead to one of `targets` (or, with `orNull`, break off at a null). */
async function circuitsReaching(
  steps: Step[],
  targets: number[],
  orNull: boolean,
  env: FilterEnvironment,
): Promise<number[]> {
  let current: Array<number | null> = orNull ? [...targets, null] : targets;
  for (let i = steps.length - 1; i >= 1; i--) {
    const ids = await env.ids(steps[i]!.model, { [steps[i]!.field]: { $in: current } });
    current = orNull ? [...ids, null] : ids;
  }
  if (current.length === 0) return [];
  const terminations = await env.find(TERMINATION, { [steps[0]!.field]: { $in: current } });
  return [...new Set(terminations.map((t) => t.circuit as number))];
}

/** The providers of the circuits; with `orNull`, also the providers without circuits (NetBox's isnull over the joins). */
async function providersOf(circuits: number[], orNull: boolean, env: FilterEnvironment): Promise<number[]> {
  const providers = new Set(
    (await env.find('circuits.circuit', { id: { $in: circuits } })).map((c) => c.provider as number),
  );
  if (orNull) {
    const withCircuits = new Set((await env.find('circuits.circuit', {})).map((c) => c.provider));
    for (const id of await env.ids('circuits.provider', { id: { $nin: [...withCircuits] } })) providers.add(id);
  }
  return [...providers];
}

/** The circuit filters on where a circuit ends: NetBox's provider network, site, region and site group filters. */
export const circuitEndFilters: Record<string, FilterSpec> = {
  provider_network_id: circuitsEndingAt({
    target: 'circuits.providernetwork',
    by: 'id',
    steps: [{ model: TERMINATION, field: 'provider_network' }],
  }),
  ...siteFilters('circuit'),
};

/** A provider's filters on the sites where its circuits end. */
export const providerEndFilters: Record<string, FilterSpec> = siteFilters('provider');

function siteFilters(of: 'circuit' | 'provider'): Record<string, FilterSpec> {
  return {
    region_id: circuitsEndingAt({
      of,
      target: 'dcim.region',
      by: 'id',
      includeDescendants: true,
      steps: siteThen('region'),
    }),
    region: circuitsEndingAt({
      of,
      target: 'dcim.region',
      by: 'slug',
      includeDescendants: true,
      steps: siteThen('region'),
    }),
    site_group_id: circuitsEndingAt({
      of,
      target: 'dcim.sitegroup',
      by: 'id',
      includeDescendants: true,
      steps: siteThen('group'),
    }),
    site_group: circuitsEndingAt({
      of,
      target: 'dcim.sitegroup',
      by: 'slug',
      includeDescendants: true,
      steps: siteThen('group'),
    }),
    site_id: circuitsEndingAt({ of, target: 'dcim.site', by: 'id', steps: [{ model: TERMINATION, field: 'site' }] }),
    site: circuitsEndingAt({ of, target: 'dcim.site', by: 'slug', steps: [{ model: TERMINATION, field: 'site' }] }),
  };
}

function siteThen(field: string): Step[] {
  return [
    { model: TERMINATION, field: 'site' },
    { model: 'dcim.site', field },
  ];
}

/**
 * ?ordering=a,-b (DRF's OrderingFilter) as a MongoDB sort. Names come from the model's
 * ordering fields (NetBox's ordering_params); unknown names are dropped silently and
 * the model's default ordering follows the requested terms (it also breaks ties, then id,
 * so pages are deterministic). Values order as NetBox orders them where it matters:
 * - a name with a natural sort key ('_name': devices, sites, racks, interfaces) by that key
 *   ('eth2' before 'eth10');
 * - networks (prefix, aggregate) by family, network address, then mask length; IP
 *   addresses by family, address numerically, then mask length;
 * - a relation by the related model's own ordering (e.g. an interface's device by its
 *   natural name), as NetBox does: a relation of the model's default ordering through the
 *   order key the projection keeps (`_ord_<field>`, models/relationOrder.ts), any other
 *   relation at query time (relationOrder.ts);
 * - custom_field_data by the stored custom field object.
 * In brief mode only the brief fields may be ordered by (the brief serializer's fields are
 * the only ordering names DRF's OrderingFilter then knows).
 */
import type { ModelDefinition } from '../../models/modelDefinition.js';
import { orderingKey } from '../../models/relationOrder.js';
import type { Sort } from '../../projections/ReadStore.js';

const NOT_SORTABLE = new Set([
  'url',
  'display',
  'computed',
  'count',
  'reverse',
  'generic_fk',
  'generic_list',
  'custom_fields',
]);

/** The stored keys one ordering name sorts by, or null when it cannot be ordered by. */
export function sortKeysOf(definition: ModelDefinition, name: string): string[] | null {
  if (name === 'custom_field_data')
    return definition.fields.some((f) => f.type === 'custom_fields') ? ['custom_fields'] : null;
  const field = definition.fields.find((f) => f.name === name);
  if (!field || field.internal || field.writeOnly || field.secret || NOT_SORTABLE.has(field.type)) return null;
  const hidden = new Set(definition.ordering.map((t) => t.replace(/^-/, '')).filter((t) => t.startsWith('_')));
  if (field.type === 'cidr' && hidden.has('_network')) return ['_network', '_prefixlen'];
  if (field.type === 'ip_address' && hidden.has('_address')) return ['_address', '_prefixlen'];
  if (hidden.has(`_${name}`)) return [`_${name}`];
  return [orderingKey(definition, name)];
}

export function parseOrdering(ordering: string | null): Array<{ name: string; dir: 1 | -1 }> {
  const terms: Array<{ name: string; dir: 1 | -1 }> = [];
  for (const raw of (ordering ?? '').split(',')) {
    const term = raw.trim();
    if (!term) continue;
    const desc = term.startsWith('-');
    terms.push({ name: desc ? term.slice(1).trim() : term, dir: desc ? -1 : 1 });
  }
  return terms;
}

export function compileSort(
  definition: ModelDefinition,
  ordering: string | null,
  options: { brief?: boolean } = {},
): Sort {
  const sort: Sort = {};
  let allowed = new Set(definition.orderingFields ?? definition.fields.map((f) => f.name));
  if (definition.fields.some((f) => f.type === 'custom_fields')) allowed.add('custom_field_data');
  if (options.brief) allowed = new Set(definition.brief.filter((name) => allowed.has(name)));
  for (const { name, dir } of parseOrdering(ordering)) {
    if (!allowed.has(name)) continue;
    for (const key of sortKeysOf(definition, name) ?? []) if (!Object.hasOwn(sort, key)) sort[key] = dir;
  }
  const requested = Object.keys(sort).length;
  const direction = requested > 0 && Object.values(sort).every((d) => d === -1) ? -1 : 1;
  for (const term of definition.ordering) {
    const name = orderingKey(definition, term.replace(/^-/, ''));
    if (Object.hasOwn(sort, name)) continue;
    // The id that only breaks ties follows the requested direction (so a reversed order is one index walked backwards).
    sort[name] = name === 'id' && requested > 0 ? direction : term.startsWith('-') ? -1 : 1;
  }
  if (!Object.hasOwn(sort, 'id')) sort.id = direction;
  return sort;
}

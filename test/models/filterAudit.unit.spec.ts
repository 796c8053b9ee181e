import { existsSync, readFileSync } from 'node:fs';

import test from 'ava';

import { type FilterReference, loadReference } from '../../scripts/check-filters.js';
import { compileFilter } from '../../src/api/query/compileFilter.js';
import { filterSetOf } from '../../src/api/query/filterSet.js';
import { ValidationError } from '../../src/errors/requestErrors.js';
import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { loadDataset } from '../support/queryDataset.js';

/**
 * NetBox 3.4 ignores a query parameter that is not one of its filters, and refuses a value
 * only where its filter's form field does (a number that is not one, an unknown object, an
 * invalid choice). netledger may answer more filters, but none may turn a request NetBox
 * answers with 200 into a 400: every parameter netledger has and NetBox does not must accept
 * any value, and every parameter both have must accept the values NetBox's kind of filter
 * accepts. The reference's per-model filter lists (filters, filter_info, filter_kinds) are
 * the spec; a seeded read store answers the lookups the filters make.
 */
const referenceDir =
  process.env.NETBOX_REFERENCE_DIR ?? new URL('../../../shared/reference/netbox-3.4/', import.meta.url).pathname;

/** Values a parameter NetBox does not have must take (NetBox ignores the parameter). */
const ANY_VALUE = ['abc', '1', '99999', '-1', '1.5', 'null', 'true', '2024-13-45', 'aa:bb', '10.0.0.0/8'];

/**
 * The filter classes NetBox 3.4.10 declares where the reference's kind leaves the accepted
 * values open (a method, a content type): netboxFilterClasses.json, read off its filtersets.
 */
const filterClasses = (
  JSON.parse(readFileSync(new URL('./netboxFilterClasses.json', import.meta.url), 'utf8')) as {
    filters: Record<string, Record<string, string>>;
  }
).filters;

/** Values NetBox's filters of a class take whatever their method does with them. */
const ACCEPTED_BY_CLASS: Record<string, string[]> = {
  // a number form field: any number, the method then selects what it selects (nothing, for an unknown id)
  NumberFilter: ['1', '99999', '-1'],
  MultiValueNumberFilter: ['1', '99999', '-1'],
  // '<app_label>.<model>' or nothing: a text it cannot split selects nothing
  ContentTypeFilter: ['abc', '1', 'dcim.nosuch', 'dcim.site', '10.0.0.0/8'],
  // a null boolean form field: what it cannot read is no filtering
  BooleanFilter: ['true', 'False', 'abc', '1'],
  // django-filter's null choice ('null': the field is empty), which NetBox's FILTERS_NULL_CHOICE_LABEL
  // turns on for every choice filter not declared with null_value=None
  MultipleChoiceFilter: ['null'],
  ChoiceFilter: ['null'],
};

/** Values NetBox's filters of a kind accept (null when the kind refuses values no probe can avoid: choices, methods). */
function acceptedBy(ref: FilterReference, name: string, lookup: string): string[] | null {
  const info = ref.filter_info?.[name];
  const kind =
    ref.filter_kinds?.[name] ??
    (typeof info?.value === 'string' ? info.value : typeof info?.matches === 'string' ? 'relation' : '?');
  if (lookup === 'empty') return ['true', 'false', 'abc'];
  const declared = filterClasses[ref.model]?.[name];
  if (lookup === 'exact' && declared && ACCEPTED_BY_CLASS[declared]) return ACCEPTED_BY_CLASS[declared]!;
  // a method reads its text its own way (a VLAN's id, a VID): which texts it takes is not in the reference
  if (info?.custom === true && kind === 'string') return null;
  switch (kind) {
    case 'string':
    case 'string_single':
    case 'search':
      return ['abc', '1', 'null', 'x y'];
    case 'boolean':
      return ['true', 'False', 'abc', '1'];
    case 'number':
    case 'integer':
    case 'decimal':
      return ['1', '99999', '-1'];
    case 'datetime':
    case 'datetime_single':
    case 'datetime_range':
    case 'date':
      return ['2024-01-01'];
    case 'id':
    case 'slug':
    case 'tree_id':
    case 'tree_slug':
    case 'name':
    case 'rd':
    case 'identifier':
    case 'slug / name / username':
    case 'relation':
    case 'id_single':
      // django-filter's model choice filters (filter_info `matches`) take 'null', NetBox's FILTERS_NULL_CHOICE_VALUE;
      // a relation the reference only describes by kind may be a number filter: 'null' where it says so
      // (a model choice filter generated for a foreign key, 'id_single', likewise)
      return (typeof info?.matches === 'string' && name !== 'tag') || kind === 'id_single'
        ? ['null']
        : info?.null_value
          ? ['null']
          : null;
    default:
      return null;
  }
}

/** The reference's parameters of a model: each filter with each of its lookups, '<name>' for exact. */
function referenceParameters(ref: FilterReference): Map<string, { name: string; lookup: string }> {
  const out = new Map<string, { name: string; lookup: string }>();
  for (const [name, lookups] of Object.entries(ref.filters ?? {})) {
    out.set(name, { name, lookup: 'exact' });
    for (const lookup of lookups)
      if (lookup !== 'exact' && !lookup.includes(' ')) out.set(`${name}__${lookup}`, { name, lookup });
  }
  return out;
}

async function refusal(store: MemoryReadStore, model: string, param: string, value: string): Promise<string | null> {
  const definition = registry.get(model);
  try {
    await compileFilter(registry, definition, new URLSearchParams([[param, value]]), store);
    return null;
  } catch (error) {
    if (error instanceof ValidationError) return JSON.stringify(error.body);
    throw error;
  }
}

test('no filter refuses a request NetBox 3.4 answers: extra filters take any value, shared ones what NetBox takes', async (t) => {
  if (!existsSync(referenceDir)) {
    t.log(`skipped: the reference is not at ${referenceDir} (set NETBOX_REFERENCE_DIR)`);
    t.pass();
    return;
  }
  const reference = loadReference();
  const store = new MemoryReadStore();
  await loadDataset(store);
  const problems: string[] = [];
  let probed = 0;
  for (const definition of registry.all()) {
    const ref = reference.get(`/api/${definition.app}/${definition.path}/`);
    if (!ref?.filters) continue;
    const theirs = referenceParameters(ref);
    for (const [name, filter] of filterSetOf(registry, definition)) {
      for (const lookup of ['exact', ...filter.lookups]) {
        const param = lookup === 'exact' ? name : `${name}__${lookup}`;
        const shared = theirs.get(param);
        const values = shared ? acceptedBy(ref, shared.name, shared.lookup) : ANY_VALUE;
        for (const value of values ?? []) {
          probed++;
          const refused = await refusal(store, definition.key, param, value);
          if (refused)
            problems.push(
              `${definition.key} ?${param}=${value} (${shared ? 'NetBox accepts it' : 'NetBox has no such filter'}): ${refused}`,
            );
        }
      }
    }
  }
  t.log(`${probed} parameter values probed`);
  t.deepEqual(problems, []);
});

test("front port templates ignore rear_port, as NetBox 3.4 (which has no such filter there) does: Ansible's module sends it", async (t) => {
  const store = new MemoryReadStore();
  await loadDataset(store);
  const definition = registry.get('dcim.frontporttemplate');
  for (const query of ['rear_port=1', 'rear_port=99999', 'rear_port_id=99999', 'rear_port_position=abc']) {
    t.deepEqual(await compileFilter(registry, definition, new URLSearchParams(query), store), {}, query);
  }
  t.deepEqual(
    await compileFilter(registry, definition, new URLSearchParams('rear_port_position=2'), store),
    { rear_port_position: 2 },
    'a usable value still filters',
  );
});

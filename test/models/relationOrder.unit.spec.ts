import { existsSync } from 'node:fs';

import test from 'ava';

import { loadReference } from '../../scripts/netboxReference.js';
import { findInOrder } from '../../src/api/query/listPage.js';
import type { FieldDefinition } from '../../src/models/fieldDefinition.js';
import type { ModelDefinition } from '../../src/models/modelDefinition.js';
import { registry } from '../../src/models/registry.js';
import { orderedRelations } from '../../src/models/relationOrder.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { withProjectedColumns } from '../../src/projections/projectedColumns.js';
import { readModelIndexes } from '../../src/projections/readModelIndexes.js';
import type { DocumentChange } from '../../src/projections/ReadStore.js';
import { storedDocument } from '../support/queryDataset.js';

/**
 * A default ordering that names a relation sorts by the related model's own ordering, as
 * Django does for NetBox's Meta.ordering (interfaces by their device's natural name, VLANs by
 * site, then group): for every model whose ordering in the NetBox 3.4 reference names a
 * relation, three objects whose related objects order against their ids come back in the
 * related objects' order, objects without the relation last (PostgreSQL's NULLS LAST).
 */
const referenceDir =
  process.env.NETBOX_REFERENCE_DIR ?? new URL('../../../shared/reference/netbox-3.4/', import.meta.url).pathname;

/** (model, relation) pairs whose default ordering follows the relation, from the reference (else the registry). */
function relationOrderings(): Array<{ model: string; field: string }> {
  if (!existsSync(referenceDir)) {
    return registry.all().flatMap((d) => orderedRelations(d).map((r) => ({ model: d.key, field: r.field })));
  }
  const out: Array<{ model: string; field: string }> = [];
  for (const ref of loadReference().values()) {
    const relations = new Set(ref.fields.filter((f) => f.type === 'fk').map((f) => f.name));
    for (const term of ref.ordering ?? [])
      if (relations.has(term) && registry.tryGet(ref.model)) out.push({ model: ref.model, field: term });
  }
  return out;
}

/** The field a term of an ordering reads: itself, or the field a hidden key ('_name') is derived from. */
function fieldOfTerm(definition: ModelDefinition, term: string): FieldDefinition | undefined {
  return (
    definition.fields.find((f) => f.name === term) ?? definition.fields.find((f) => f.name === term.replace(/^_/, ''))
  );
}

/** Values that make the objects order by `rank` (0 first) on the model's first plain ordering term; relations null. */
function rankedValues(definition: ModelDefinition, rank: number): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  let ranked = false;
  for (const term of definition.ordering) {
    const field = fieldOfTerm(definition, term);
    if (!field || field.name === 'id') continue;
    if (field.type === 'fk') values[field.name] = null;
    else if (!ranked) {
      values[field.name] =
        field.type === 'integer' || field.type === 'decimal' ? rank + 1 : `${'abc'[rank]}-${definition.model}`;
      ranked = true;
    } else values[field.name] = field.type === 'integer' || field.type === 'decimal' ? 1 : 'same';
  }
  return values;
}

async function storeWith(changes: DocumentChange[]): Promise<MemoryReadStore> {
  const store = new MemoryReadStore();
  for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
  await store.apply(await withProjectedColumns(registry, store, changes), changes.length);
  return store;
}

/** A related model ordered by id alone (a cable) orders as its ids do: no key to keep. */
const orderedById = (model: string, field: string) => {
  const target = registry.get(registry.get(model).fields.find((f) => f.name === field)!.target!);
  return target.ordering.every((t) => t === 'id');
};
const pairs = relationOrderings().filter(({ model, field }) => !orderedById(model, field));

// Without the reference the orderings come from the registry itself, which cannot check them.
const withReference = existsSync(referenceDir) ? test : test.skip;

withReference('the reference names the relation orderings this test covers', (t) => {
  t.true(pairs.length >= 30, `${pairs.length} relation orderings`);
  t.deepEqual(
    relationOrderings().filter(({ model, field }) => orderedById(model, field)),
    [{ model: 'dcim.cabletermination', field: 'cable' }],
  );
  for (const { model, field } of pairs) {
    t.true(
      orderedRelations(registry.get(model)).some((r) => r.field === field),
      `${model} keeps the order key of ${field}`,
    );
  }
});

for (const { model, field } of pairs) {
  test(`${model}: ordered by ${field} in ${field}'s own order, objects without it last`, async (t) => {
    const definition = registry.get(model);
    const target = registry.get(definition.fields.find((f) => f.name === field)!.target!);
    let position = 0;
    const change = (key: string, obj: Record<string, unknown> & { id: number }): DocumentChange => ({
      collection: key,
      id: obj.id,
      position: ++position,
      doc: storedDocument(key, obj, position),
    });
    const changes: DocumentChange[] = [];
    // targets 1, 2, 3 order as 3, 2, 1
    for (const id of [1, 2, 3]) changes.push(change(target.key, { id, ...rankedValues(target, 3 - id) }));
    // holders 1..3 name targets 1..3, holder 4 none; every other ordering term equal
    for (const id of [1, 2, 3, 4]) {
      const same = rankedValues(definition, 0);
      for (const [k, v] of Object.entries(same))
        if (typeof v === 'string' || typeof v === 'number') same[k] = typeof v === 'number' ? 1 : 'same';
      changes.push(change(definition.key, { id, ...same, [field]: id === 4 ? null : id }));
    }
    const store = await storeWith(changes);
    const list = async (ordering: string | null) =>
      (await findInOrder(store, definition, {}, ordering, { brief: false, skip: 0, limit: undefined })).docs.map(
        (d) => d.id,
      );
    t.deepEqual(await list(null), [3, 2, 1, 4], 'default ordering');
    t.deepEqual(await list(field), [3, 2, 1, 4], `?ordering=${field}`);
    t.deepEqual(await list(`-${field}`), [4, 1, 2, 3], `?ordering=-${field}: reversed, nulls first`);
  });
}

test('renaming a related object reorders the objects keeping its key, down a chain of orderings (site → power panel → feed)', async (t) => {
  let position = 0;
  const change = (key: string, obj: Record<string, unknown> & { id: number }): DocumentChange => ({
    collection: key,
    id: obj.id,
    position: ++position,
    doc: storedDocument(key, obj, position),
  });
  const store = await storeWith([
    change('dcim.site', { id: 1, name: 'A', slug: 'a' }),
    change('dcim.site', { id: 2, name: 'B', slug: 'b' }),
    change('dcim.powerpanel', { id: 1, site: 1, name: 'P' }),
    change('dcim.powerpanel', { id: 2, site: 2, name: 'P' }),
    change('dcim.powerfeed', { id: 1, power_panel: 1, name: 'F' }),
    change('dcim.powerfeed', { id: 2, power_panel: 2, name: 'F' }),
  ]);
  const list = async (model: string) =>
    (await findInOrder(store, registry.get(model), {}, null, { brief: false, skip: 0, limit: undefined })).docs.map(
      (d) => d.id,
    );
  t.deepEqual(await list('dcim.powerfeed'), [1, 2]);
  const renamed = [change('dcim.site', { id: 1, name: 'C', slug: 'a' })];
  await store.apply(await withProjectedColumns(registry, store, renamed), position);
  t.deepEqual(await list('dcim.powerpanel'), [2, 1]);
  t.deepEqual(await list('dcim.powerfeed'), [2, 1], 'the feeds follow their panels, which follow their sites');
  const again = await withProjectedColumns(registry, store, renamed);
  t.deepEqual(
    again.filter((c) => c.columns),
    [],
    'a batch applied again patches nothing',
  );
});

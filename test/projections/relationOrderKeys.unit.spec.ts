import test from 'ava';

import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import type { DocumentChange, ReadDocument } from '../../src/projections/ReadStore.js';
import { orderKeyOf, withRelationOrderKeys } from '../../src/projections/relationOrderKeys.js';

const site = (id: number, name: string, position: number): DocumentChange => ({
  collection: 'dcim.site',
  id,
  position,
  doc: { id, name, slug: name, _name: name, _pos: position } as ReadDocument,
});
const panel = (id: number, siteId: number, position: number): DocumentChange => ({
  collection: 'dcim.powerpanel',
  id,
  position,
  doc: { id, site: siteId, name: `panel-${id}`, _pos: position } as ReadDocument,
});
const feed = (id: number, panelId: number, name: string, position: number): DocumentChange => ({
  collection: 'dcim.powerfeed',
  id,
  position,
  doc: { id, power_panel: panelId, name, _pos: position } as ReadDocument,
});

async function applied(store: MemoryReadStore, changes: DocumentChange[]): Promise<void> {
  await store.apply(await withRelationOrderKeys(registry, store, changes), Math.max(...changes.map((c) => c.position)));
}

test('given a feed of a panel of a site, when one batch renames the site and changes the feed but not the panel, then the feed keeps the key of the panel as the batch leaves it', async (t) => {
  const store = new MemoryReadStore();
  await store.open();
  await applied(store, [site(1, 'zulu', 1)]);
  await applied(store, [panel(1, 1, 2)]);
  await applied(store, [feed(1, 1, 'feed-a', 3)]);

  await applied(store, [site(1, 'alpha', 4), feed(1, 1, 'feed-b', 4)]);

  const panelNow = (await store.get('dcim.powerpanel', 1))!;
  t.is(
    panelNow._ord_site,
    orderKeyOf(registry.get('dcim.site'), (await store.get('dcim.site', 1))!),
    'the panel patched',
  );
  t.is(
    (await store.get('dcim.powerfeed', 1))!._ord_power_panel,
    orderKeyOf(registry.get('dcim.powerpanel'), panelNow),
    'the feed took the key the panel has after the batch, not the one stored before it',
  );
});

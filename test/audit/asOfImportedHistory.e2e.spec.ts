/**
 * `?as_of=` over a history imported from NetBox whose snapshots do not follow on: NetBox
 * changes fields without recording a change (saves that skip its signals, pruned changes),
 * so a change's prechange_data may differ from the previous change's postchange_data. The
 * past view selects by field marks (fieldMarks.ts), which see only what each change moved;
 * what moved in such a gap is covered by the import's own creation of every current object
 * (and by a recorded delete of the others), which marks every field.
 */
import { randomUUID } from 'node:crypto';

import test from 'ava';

import { recordPastChanges } from '../../src/commands/importHistory.js';
import { storedForm } from '../../src/commands/storedForm.js';
import { pastChangesOf } from '../../src/migration/pastChanges.js';
import { registry } from '../../src/models/registry.js';
import { netboxChange } from '../support/netboxChanges.js';
import { startService } from '../support/startService.js';

test('lists as of a change filtered by a field that moved between recorded changes answer as then', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { coordinator, store } = service.services;
  const kept = await service.api('POST', '/api/dcim/sites/', { name: 'kept', slug: 'kept' });
  t.is(kept.status, 201);
  const { id: _id, ...form } = storedForm((await store.get('dcim.site', kept.body.id))!);
  const live = kept.body.id + 100;
  const gone = kept.body.id + 101;
  const site = ([name, description, status]: readonly string[]) => ({
    ...form,
    name,
    slug: name,
    description,
    status,
  });
  // In time order: live created, gone created, live updated, gone updated, gone deleted. Each update's
  // prechange says description "two" where the change before it left "one": moved unrecorded.
  const source = (
    [
      [live, 'create', '2024-01-01T10:00:00Z', null, ['gap-live', 'one', 'active']],
      [live, 'update', '2024-01-02T10:00:00Z', ['gap-live', 'two', 'active'], ['gap-live', 'two', 'planned']],
      [gone, 'create', '2024-01-01T11:00:00Z', null, ['gap-gone', 'one', 'active']],
      [gone, 'update', '2024-01-02T11:00:00Z', ['gap-gone', 'two', 'active'], ['gap-gone', 'two', 'planned']],
      [gone, 'delete', '2024-01-03T11:00:00Z', ['gap-gone', 'three', 'planned'], null],
    ] as const
  ).map(([object, action, time, pre, post], i) =>
    netboxChange(i + 1, action, time, pre && site(pre), post && site(post), object),
  );
  const { changes } = pastChangesOf(registry, source, new Map());
  const { events } = await coordinator.execute({ requestId: randomUUID(), user: null }, async (tx) => {
    tx.claimId('dcim.site', live);
    tx.claimId('dcim.site', gone);
    recordPastChanges(tx, changes);
    // as the import does: every current object created over its history, as the source holds it now
    tx.record({
      action: 'create',
      objectType: 'dcim.site',
      objectId: live,
      objectRepr: 'gap-live',
      prechange: null,
      postchange: { ...site(['gap-live', 'now', 'planned']), id: live },
    });
  });
  const [liveCreated, goneCreated, liveUpdated, goneUpdated, goneDeleted] = events.map((e) => e.position);
  t.deepEqual(
    events.map((e) => `${e.objectId === live ? 'live' : 'gone'} ${e.action}`),
    ['live create', 'gone create', 'live update', 'gone update', 'gone delete', 'live create'],
  );
  const names = async (position: number, filter: string) => {
    const page = await service.api('GET', `/api/dcim/sites/?as_of=${position}&${filter}&name__isw=gap-&ordering=name`);
    t.is(page.status, 200, JSON.stringify(page.body));
    return page.body.results.map((r: { name: string; description: string }) => `${r.name}:${r.description}`);
  };
  t.deepEqual(await names(liveCreated, 'description=one'), ['gap-live:one']);
  t.deepEqual(await names(liveCreated, 'description=two'), []);
  t.deepEqual(await names(goneCreated, 'description=one'), ['gap-gone:one', 'gap-live:one']);
  t.deepEqual(await names(liveUpdated, 'description=one'), ['gap-gone:one']);
  t.deepEqual(await names(liveUpdated, 'description=two'), ['gap-live:two']);
  t.deepEqual(await names(goneUpdated, 'description=two'), ['gap-gone:two', 'gap-live:two']);
  t.deepEqual(await names(goneUpdated, 'description=one'), []);
  t.deepEqual(await names(goneUpdated, 'status=planned'), ['gap-gone:two', 'gap-live:two']);
  t.deepEqual(await names(goneDeleted, 'description=two'), ['gap-live:two']);
  t.is((await service.api('GET', `/api/dcim/sites/${gone}/?as_of=${goneUpdated}`)).body.description, 'two');
  t.deepEqual(await names(events.at(-1)!.position, 'description=now'), ['gap-live:now']);
});

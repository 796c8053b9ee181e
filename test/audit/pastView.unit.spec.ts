import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import anyTest, { type TestFn } from 'ava';

import { AuditLog } from '../../src/audit/AuditLog.js';
import { PastView } from '../../src/audit/PastView.js';
import { type ChangeEvent, onMain } from '../../src/events/ChangeEvent.js';
import { FileEventLog } from '../../src/events/file/FileEventLog.js';
import { registry } from '../../src/models/registry.js';
import { evolve } from '../../src/projections/evolve.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { withProjectedColumns } from '../../src/projections/projectedColumns.js';
import { readModelIndexes } from '../../src/projections/readModelIndexes.js';
import { orderKeyOf } from '../../src/projections/relationOrderKeys.js';
import { makeEvent } from '../support/makeEvent.js';

interface Context {
  dir: string;
  log: FileEventLog;
  audit: AuditLog;
  live: MemoryReadStore;
}

const test = anyTest as TestFn<Context>;

test.beforeEach(async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-past-view-'));
  const log = new FileEventLog({ dir });
  await log.open();
  const live = new MemoryReadStore();
  await live.open();
  for (const [collection, fields] of readModelIndexes(registry)) await live.ensureIndexes(collection, fields);
  const audit = new AuditLog(log, registry);
  await audit.open();
  t.context = { dir, log, audit, live };
});
test.afterEach.always(async (t) => {
  await t.context.audit?.close();
  await t.context.log?.close();
  rmSync(t.context.dir, { recursive: true, force: true });
});

/** Appends events (one request each) to the log, and projects them into the live read models as the projector does. */
async function given(t: { context: Context }, events: ChangeEvent[], project = true): Promise<void> {
  const { log, audit, live } = t.context;
  for (const event of events) {
    await log.append([event]);
    if (project && onMain(event))
      await live.apply(await withProjectedColumns(registry, live, [evolve(registry, event)]), event.position);
  }
  await audit.sync();
}

const site = (
  position: number,
  id: number,
  fields: Record<string, unknown> = {},
  action: ChangeEvent['action'] = 'create',
) => {
  const base = makeEvent(position, { objectId: id, objectRepr: `site-${id}` });
  const postchange =
    action === 'delete' ? null : { ...base.postchange!, id, name: `site-${id}`, slug: `site-${id}`, ...fields };
  return { ...base, action, postchange, objectRepr: String(postchange?.name ?? `site-${id}`) };
};

/** A site event with the version before it (what the write side records). */
function change(position: number, before: ChangeEvent, fields: Record<string, unknown> | null): ChangeEvent {
  const event = site(
    position,
    before.objectId,
    { ...before.postchange, ...fields },
    fields === null ? 'delete' : 'update',
  );
  return { ...event, prechange: before.postchange };
}

function panel(position: number, id: number, siteId: number): ChangeEvent {
  return makeEvent(position, {
    objectType: 'dcim.powerpanel',
    objectId: id,
    objectRepr: `panel-${id}`,
    postchange: { id, site: siteId, location: null, name: `panel-${id}`, comments: '', tags: [], custom_fields: {} },
  });
}

test('given updates, a delete and a create after the position, when read as of it, then each object is its version then', async (t) => {
  const [one, two, three] = [site(1, 1), site(2, 2, { description: 'first' }), site(3, 3)];
  await given(t, [one, two, three, change(4, two, { description: 'second' }), change(5, three, null), site(6, 4)]);
  const view = new PastView(registry, t.context.audit, t.context.live, 3);

  t.deepEqual(
    await view.get('dcim.site', 1),
    await t.context.live.get('dcim.site', 1),
    'unchanged since: the live one',
  );
  t.like(
    await view.get('dcim.site', 2),
    { description: 'first', _pos: 2, display: 'site-2' },
    'updated since: its version then',
  );
  t.like(await view.get('dcim.site', 3), { name: 'site-3', _pos: 3 }, 'deleted since: restored');
  t.is(await view.get('dcim.site', 4), null, 'created since: absent');
  t.deepEqual(
    (await view.find('dcim.site', {}, { sort: { id: 1 } })).map((d) => [d.id, d.description]),
    [
      [1, 'Site number 1'],
      [2, 'first'],
      [3, 'Site number 3'],
    ],
  );
  t.is(await view.count('dcim.site', {}), 3);
  t.is(await view.position(), 3);
  // A list by id overlays only what differs in the fields it reads (none): the site deleted
  // since; the one created since is hidden by the id ceiling, not by an entry. The updated
  // one is selected as live, then shown at its version then.
  t.is(view.overlaidObjects, 1);
  t.is(view.eventsRead, 2 + 1 + 2, 'sites 2 and 3 for their single reads, 3 for the overlay, both for the list');
  t.deepEqual(
    (await view.find('dcim.site', { description: 'first' }, {})).map((d) => [d.id, d.description]),
    [[2, 'first']],
    'filtered by a field changed since: by its value then',
  );
  t.is(view.overlaidObjects, 2, 'the site whose description changed since is overlaid for that');
  t.deepEqual(
    (await view.find('dcim.site', { description: 'second' }, {})).map((d) => d.id),
    [],
    'filtered by a value it took since: not matched',
  );
});

test('given a site renamed after the position, when its power panel is read as of it, then the panel keeps the old name’s order key', async (t) => {
  const before = site(1, 1, { name: 'zulu', slug: 'zulu' });
  await given(t, [before, site(2, 2, { name: 'mike', slug: 'mike' }), panel(3, 1, 1), panel(4, 2, 2)]);
  await given(t, [change(5, before, { name: 'alpha' })]);
  const zulu = (await new PastView(registry, t.context.audit, t.context.live, 4).get('dcim.site', 1))!;
  const oldKey = orderKeyOf(registry.get('dcim.site'), zulu);
  t.not((await t.context.live.get('dcim.powerpanel', 1))!._ord_site, oldKey, 'live: the new name’s key');

  const single = new PastView(registry, t.context.audit, t.context.live, 4);
  t.is((await single.get('dcim.powerpanel', 1))!._ord_site, oldKey, 'one object, from its chain');
  const listed = new PastView(registry, t.context.audit, t.context.live, 4);
  const panels = await listed.find('dcim.powerpanel', {}, { sort: { _ord_site: 1, name: 1, id: 1 } });
  t.deepEqual(
    panels.map((d) => d.id),
    [2, 1],
    'ordered by their sites’ names then (mike before zulu), not now (alpha before mike)',
  );
  t.is(panels[1]!._ord_site, oldKey);
});

test('given a change made inside a branch after the position, when read as of it, then main’s version is shown', async (t) => {
  const one = site(1, 1);
  await given(t, [one, { ...change(2, one, { description: 'in a branch' }), branch: 'abcd1234' }]);
  const view = new PastView(registry, t.context.audit, t.context.live, 1);
  t.deepEqual(await view.get('dcim.site', 1), await t.context.live.get('dcim.site', 1));
  t.is(view.eventsRead, 0);
});

test('given a view already read, when the live read models move on, then its next reads take the new changes in', async (t) => {
  const one = site(1, 1);
  await given(t, [one, site(2, 2)]);
  const view = new PastView(registry, t.context.audit, t.context.live, 2);
  t.is(await view.count('dcim.site', {}), 2);
  await given(t, [change(3, one, { description: 'later' }), site(4, 3)]);
  t.is(await view.count('dcim.site', {}), 2, 'the site created since stays hidden');
  t.is(
    (await view.find('dcim.site', { id: { $in: [1] } }))[0]!.description,
    'Site number 1',
    'the update since is undone',
  );
});

test('given live read models behind the position, when read as of it, then the changes they miss are overlaid', async (t) => {
  const one = site(1, 1);
  await given(t, [one]);
  await given(t, [change(2, one, { description: 'not projected yet' }), site(3, 2)], false);
  const view = new PastView(registry, t.context.audit, t.context.live, 3);
  t.is((await view.get('dcim.site', 1))!.description, 'not projected yet');
  t.deepEqual(
    (await view.find('dcim.site', {}, { sort: { id: 1 } })).map((d) => d.id),
    [1, 2],
  );
});

import test from 'ava';

import { AuditIndex } from '../../src/audit/AuditIndex.js';
import { ALL_FIELDS, changedFieldMarks, fieldBit, queryFieldMarks } from '../../src/audit/fieldMarks.js';
import { decodeAuditState, encodeAuditState } from '../../src/audit/indexSnapshot.js';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { registry } from '../../src/models/registry.js';
import { makeEvent } from '../support/makeEvent.js';

/** An update of site `id` at `position`, from `before` with `fields` changed. */
function update(position: number, before: ChangeEvent, fields: Record<string, unknown>): ChangeEvent {
  return {
    ...makeEvent(position, { objectId: before.objectId }),
    action: 'update',
    prechange: before.postchange,
    postchange: { ...before.postchange, ...fields },
  };
}

const created = makeEvent(1);

test('a create or a delete marks every field; an update the fields it moved, derived columns included', (t) => {
  t.is(changedFieldMarks(registry, created), ALL_FIELDS);
  t.is(
    changedFieldMarks(registry, { ...created, action: 'delete', prechange: created.postchange, postchange: null }),
    ALL_FIELDS,
  );
  t.is(changedFieldMarks(registry, { ...update(2, created, {}), prechange: null }), ALL_FIELDS, 'no version before it');

  const described = changedFieldMarks(registry, update(2, created, { description: 'new', last_updated: 'later' }));
  t.is(described, (fieldBit('description') | fieldBit('last_updated')) >>> 0);
  t.is(fieldBit('last_updated'), 1, 'the field every update moves has a bit of its own');
  t.not(fieldBit('name'), fieldBit('description'));
  t.is(described & fieldBit('name'), 0, 'the name kept its value');

  const renamed = changedFieldMarks(registry, update(2, created, { name: 'zulu' }));
  t.truthy(renamed & fieldBit('name'));
  t.truthy(renamed & fieldBit('_name'), "the name's natural sort key (derived) moved with it");
  t.truthy(changedFieldMarks(registry, update(2, created, { tags: [{ name: 'a' }] })) & fieldBit('tags'));
  t.is(changedFieldMarks(registry, update(2, created, { tags: [] })) & fieldBit('tags') & ~fieldBit('last_updated'), 0);
});

test('a query marks the fields it filters and sorts by; what no mark follows reads everything', (t) => {
  t.is(queryFieldMarks({}), 0);
  t.is(queryFieldMarks({ id: { $in: [1, 2] } }, { id: -1 }), 0, 'ids never change');
  t.is(
    queryFieldMarks({ $or: [{ status: 'active' }, { 'custom_fields.x': 1 }] }, { _name: 1 }),
    (fieldBit('status') | fieldBit('custom_fields') | fieldBit('_name')) >>> 0,
  );
  t.is(queryFieldMarks({}, 'site'), fieldBit('site') >>> 0, 'a count by one field');
  t.is(queryFieldMarks({}, { _ord_site: 1 }), ALL_FIELDS, 'order keys kept from related objects');
  t.is(queryFieldMarks({ display: 'x' }), ALL_FIELDS);
  t.is(queryFieldMarks({ _depth: 0 }), ALL_FIELDS, 'the prefix hierarchy');
  t.is(queryFieldMarks({ $where: 'x' }), ALL_FIELDS, 'an operator whose fields are not named');
  t.is(queryFieldMarks({ $and: 'x' } as never), ALL_FIELDS);
});

test('the index finds objects changed in given fields; creates and deletes always; a format-1 image marks all', (t) => {
  const second = makeEvent(2);
  const index = new AuditIndex(registry);
  index.add([created, second]);
  index.add([update(3, created, { description: 'new' }), update(4, second, { name: 'zulu' })]);
  index.add([{ ...makeEvent(5, { objectId: 2 }), action: 'delete', prechange: second.postchange, postchange: null }]);
  index.add([makeEvent(6)]);
  const changed = (i: AuditIndex, field: string) =>
    i.objectsChangedOnMain('dcim.site', 2, 6, Infinity, fieldBit(field)).sort();
  t.deepEqual(changed(index, 'description'), [1, 2, 6]);
  t.deepEqual(changed(index, '_name'), [2, 6]);
  t.deepEqual(
    index.objectsChangedOnMain('dcim.site', 2, 6, Infinity, 0).sort(),
    [2, 6],
    'no field: a create or delete',
  );

  const image = index.capture();
  const again = new AuditIndex(registry);
  again.load(decodeAuditState(Buffer.concat([...encodeAuditState({ index: image, idempotency: [] })])).index);
  t.deepEqual(changed(again, '_name'), [2, 6], 'format 2 keeps the marks');

  delete image.columns.fieldMarks;
  const old = new AuditIndex(registry);
  old.load(decodeAuditState(Buffer.concat([...encodeAuditState({ index: image, idempotency: [] })]), 1).index);
  t.deepEqual(changed(old, '_name'), [1, 2, 6], 'format 1: every event may have changed every field');
});

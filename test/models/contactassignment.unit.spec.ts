import test from 'ava';

import type { LookupView } from '../../src/models/lookupView.js';
import type { StoredObject } from '../../src/models/storedObject.js';
import { contactassignment } from '../../src/models/tenancy/contactassignment.js';

/** A view over a few stored objects by model and id. */
function viewOf(objects: Record<string, StoredObject[]>): LookupView {
  return {
    async get(model, id) {
      return objects[model]?.find((o) => o.id === id) ?? null;
    },
    async find() {
      return [];
    },
  };
}

const view = viewOf({
  'tenancy.contact': [{ id: 1, name: 'Alice', display: 'Alice' }],
  'dcim.site': [{ id: 7, name: 'DC-1', display: 'DC-1' }],
});
const hooks = contactassignment.hooks!;

test('an assignment reads "<contact> (<priority>) -> <object>", without the priority when none is set', async (t) => {
  t.is(
    await hooks.display!(
      { id: 1, content_type: 'dcim.site', object_id: 7, contact: 1, role: 1, priority: 'secondary' },
      view,
    ),
    'Alice (Secondary) -> DC-1',
  );
  t.is(
    await hooks.display!({ id: 1, content_type: 'dcim.site', object_id: 7, contact: 1, role: 1, priority: '' }, view),
    'Alice -> DC-1',
  );
  t.is(
    await hooks.display!({ id: 1, content_type: 'dcim.site', object_id: 8, contact: 1, role: 1, priority: '' }, view),
    'Alice -> None',
    'an object that is gone',
  );
});

test('the role may be left out by the serializer but the assignment needs one', async (t) => {
  const written = { written: new Set<string>(), models: { all: () => [], tryGet: () => undefined } };
  t.deepEqual(
    await hooks.validate!(
      { id: 1, content_type: 'dcim.site', object_id: 7, contact: 1, role: null },
      view,
      null,
      written,
    ),
    { role: ['This field cannot be null.'] },
  );
  t.deepEqual(
    await hooks.validate!({ id: 1, content_type: 'dcim.site', object_id: 7, contact: 1 }, view, null, written),
    { role: ['This field cannot be null.'] },
  );
  t.is(
    await hooks.validate!({ id: 1, content_type: 'dcim.site', object_id: 7, contact: 1, role: 2 }, view, null, written),
    undefined,
  );
});

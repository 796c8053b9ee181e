import test from 'ava';

import { NotFoundError, ValidationError } from '../../src/errors/requestErrors.js';
import {
  changedFields,
  create,
  deciderSpec,
  GIVEN_TIME,
  objectCreated,
  patch,
  patchMany,
  put,
  WHEN_TIME,
} from '../support/deciderSpec.js';

const dc1 = create('dcim.site', { name: 'DC-1', slug: 'dc-1', description: 'main site', facility: 'Building 4' });

test('patch: only the fields named change; the event carries the object before and after', async (t) => {
  const [event] = await deciderSpec(t)
    .given([dc1])
    .when(patch('dcim.site', 1, { description: 'primary site' }))
    .then([
      {
        action: 'update',
        objectType: 'dcim.site',
        objectId: 1,
        objectRepr: 'DC-1',
        prechange: { description: 'main site', facility: 'Building 4', last_updated: GIVEN_TIME },
        postchange: { description: 'primary site', facility: 'Building 4', last_updated: WHEN_TIME },
      },
    ]);
  t.deepEqual(changedFields(event), ['description', 'last_updated']);
});

test('patch: prechange and postchange are stored forms (no id, display or derived keys), creation time kept', async (t) => {
  const [event] = await deciderSpec(t)
    .given([dc1])
    .when(patch('dcim.site', 1, { name: 'DC-One' }))
    .then([
      { objectRepr: 'DC-One', prechange: { created: GIVEN_TIME }, postchange: { name: 'DC-One', created: GIVEN_TIME } },
    ]);
  for (const form of [event.prechange!, event.postchange!]) {
    t.deepEqual(
      Object.keys(form).filter((key) => key === 'id' || key === 'display' || key.startsWith('_')),
      [],
    );
  }
});

test('patch: a value equal to the stored one still records an update (only last_updated moves)', async (t) => {
  const [event] = await deciderSpec(t)
    .given([dc1])
    .when(patch('dcim.site', 1, { description: 'main site' }))
    .then([{ action: 'update', objectId: 1 }]);
  t.deepEqual(changedFields(event), ['last_updated']);
});

test('patch: an empty body records an update that changes nothing but last_updated', async (t) => {
  const [event] = await deciderSpec(t)
    .given([dc1])
    .when(patch('dcim.site', 1, {}))
    .then([{ action: 'update' }]);
  t.deepEqual(changedFields(event), ['last_updated']);
});

test('patch: an unknown id is not found and nothing is appended', async (t) => {
  await deciderSpec(t)
    .given([dc1])
    .when(patch('dcim.site', 2, { description: 'x' }))
    .thenThrows(NotFoundError);
});

test('patch: renaming to a name another object holds is refused; keeping its own name is not a duplicate', async (t) => {
  const given = [dc1, create('dcim.site', { name: 'DC-2', slug: 'dc-2' })];
  await deciderSpec(t)
    .given(given)
    .when(patch('dcim.site', 2, { name: 'DC-1' }))
    .thenThrows(ValidationError, { name: ['site with this name already exists.'] });
  await deciderSpec(t)
    .given(given)
    .when(patch('dcim.site', 2, { name: 'DC-2', slug: 'dc-2' }))
    .then([{ action: 'update', objectId: 2 }]);
});

test('bulk patch: names swapped in one request pass; a name taken by an object the request left alone does not', async (t) => {
  const given = [
    dc1,
    create('dcim.site', { name: 'DC-2', slug: 'dc-2' }),
    create('dcim.site', { name: 'DC-3', slug: 'dc-3' }),
  ];
  await deciderSpec(t)
    .given(given)
    .when(
      patchMany('dcim.site', [
        { id: 1, name: 'DC-X', slug: 'dc-x' },
        { id: 2, name: 'DC-1', slug: 'dc-1' },
      ]),
    )
    .then([
      { objectId: 1, postchange: { name: 'DC-X' } },
      { objectId: 2, postchange: { name: 'DC-1' } },
    ]);
  // Object 3 keeps its name (its rule is not looked up again), object 2 takes it: refused.
  await deciderSpec(t)
    .given(given)
    .when(
      patchMany('dcim.site', [
        { id: 3, description: 'kept' },
        { id: 2, name: 'DC-3' },
      ]),
    )
    .thenThrows(ValidationError, [{}, { name: ['site with this name already exists.'] }]);
  // Object 1 is renamed first, then object 2 takes object 1's old name: the staged view holds the rename.
  await deciderSpec(t)
    .given(given)
    .when(
      patchMany('dcim.site', [
        { id: 2, name: 'DC-1' },
        { id: 1, name: 'DC-Y' },
      ]),
    )
    .thenThrows(ValidationError, [{ name: ['site with this name already exists.'] }, {}]);
});

test('patch: a nullable relation can be cleared with null; a required one cannot', async (t) => {
  const given = [
    create('tenancy.tenant', { name: 'Acme', slug: 'acme' }),
    create('dcim.site', { name: 'DC-1', slug: 'dc-1', tenant: 1 }),
    create('dcim.rack', { name: 'R1', site: 1 }),
  ];
  await deciderSpec(t)
    .given(given)
    .when(patch('dcim.site', 1, { tenant: null }))
    .then([{ prechange: { tenant: 1 }, postchange: { tenant: null } }]);
  await deciderSpec(t)
    .given(given)
    .when(patch('dcim.rack', 1, { site: null }))
    .thenThrows(ValidationError, { site: ['This field may not be null.'] });
});

test('patch: custom field data sent is merged into what is stored', async (t) => {
  const [event] = await deciderSpec(t)
    .given([
      create('extras.customfield', { content_types: ['dcim.site'], type: 'text', name: 'owner', default: 'ops' }),
      create('extras.customfield', { content_types: ['dcim.site'], type: 'integer', name: 'floor' }),
      dc1,
    ])
    .when(patch('dcim.site', 1, { custom_fields: { floor: 2 } }))
    .then([{ action: 'update' }]);
  t.deepEqual(event.prechange!.custom_fields, { owner: 'ops', floor: null });
  t.deepEqual(event.postchange!.custom_fields, { owner: 'ops', floor: 2 });
});

test('put: required fields must be sent again', async (t) => {
  await deciderSpec(t)
    .given([dc1])
    .when(put('dcim.site', 1, { name: 'DC-1' }))
    .thenThrows(ValidationError, { slug: ['This field is required.'] });
});

test('put: fields left out keep their stored values, except those reset to their default on PUT', async (t) => {
  await deciderSpec(t)
    .given([dc1])
    .when(put('dcim.site', 1, { name: 'DC-1', slug: 'dc-1' }))
    .then([{ action: 'update', postchange: { description: 'main site', facility: 'Building 4' } }]);
  await deciderSpec(t)
    .given([
      create('auth.user', { username: 'bob', password: 'a long passphrase' }),
      create('users.token', { user: 1, allowed_ips: ['10.0.0.0/8'], description: 'ci' }),
    ])
    .when(put('users.token', 1, { user: 1 }))
    .then([{ prechange: { allowed_ips: ['10.0.0.0/8'] }, postchange: { allowed_ips: [], description: 'ci' } }]);
});

test('patch: an object stored by a hand-written (older) event is updated from what it holds, without adding defaults', async (t) => {
  const [event] = await deciderSpec(t)
    .given([{ ...objectCreated('dcim.site', 1, { name: 'Legacy', slug: 'legacy' }), v: 1 }])
    .when(patch('dcim.site', 1, { description: 'migrated' }))
    .then([
      {
        action: 'update',
        objectRepr: 'Legacy',
        postchange: { name: 'Legacy', slug: 'legacy', description: 'migrated' },
      },
    ]);
  t.false('facility' in event.postchange!, 'no default added by a PATCH');
});

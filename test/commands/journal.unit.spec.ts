import test from 'ava';

import { ValidationError } from '../../src/errors/requestErrors.js';
import { journalDisplay } from '../../src/models/extras/journalentry.js';
import { create, deciderSpec, patch, put, TEST_USER, type WriteCommand } from '../support/deciderSpec.js';

/**
 * Site 1; users 1 "admin" (the requester's id) and 2 "bob"; tag 1; journal entry 1 on the
 * site, written by admin.
 */
const journaled: WriteCommand[] = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('auth.user', { username: 'admin', password: 'a long passphrase' }),
  create('auth.user', { username: 'bob', password: 'a long passphrase' }),
  create('extras.tag', { name: 'Gold', slug: 'gold' }),
  create('extras.journalentry', {
    assigned_object_type: 'dcim.site',
    assigned_object_id: 1,
    comments: 'first',
    created_by: 1,
  }),
];

test('journal entry: the author defaults to the requesting user', async (t) => {
  await deciderSpec(t)
    .given(journaled)
    .when(create('extras.journalentry', { assigned_object_type: 'dcim.site', assigned_object_id: 1, comments: 'mine' }))
    .then([
      {
        action: 'create',
        objectType: 'extras.journalentry',
        objectId: 2,
        objectRepr: '2024-06-01 12:00 (Info)',
        postchange: { created_by: TEST_USER.id, kind: 'info' },
      },
    ]);
});

test('journal entry: a named author or none is kept; a PATCH leaves it, a PUT without it resets it to the requester', async (t) => {
  await deciderSpec(t)
    .given(journaled)
    .when(
      create('extras.journalentry', {
        assigned_object_type: 'dcim.site',
        assigned_object_id: 1,
        comments: 'unsigned',
        created_by: null,
      }),
    )
    .then([{ action: 'create', objectId: 2, postchange: { created_by: null } }]);
  await deciderSpec(t)
    .given([...journaled, patch('extras.journalentry', 1, { created_by: 2 })])
    .when(patch('extras.journalentry', 1, { comments: 'edited' }))
    .then([{ action: 'update', objectId: 1, postchange: { created_by: 2, comments: 'edited' } }]);
  await deciderSpec(t)
    .given([...journaled, patch('extras.journalentry', 1, { created_by: 2 })])
    .when(
      put('extras.journalentry', 1, {
        assigned_object_type: 'dcim.site',
        assigned_object_id: 1,
        comments: 'rewritten',
      }),
    )
    .then([{ action: 'update', objectId: 1, postchange: { created_by: TEST_USER.id } }]);
});

test('journal entry: the object must exist, and its model must keep a journal', async (t) => {
  await deciderSpec(t)
    .given(journaled)
    .when(create('extras.journalentry', { assigned_object_type: 'dcim.site', assigned_object_id: 7, comments: 'x' }))
    .thenThrows(ValidationError, { non_field_errors: ['Invalid assigned_object: dcim | site ID 7'] });
  await deciderSpec(t)
    .given(journaled)
    .when(create('extras.journalentry', { assigned_object_type: 'extras.tag', assigned_object_id: 1, comments: 'x' }))
    .thenThrows(ValidationError, { __all__: ['Journaling is not supported for this object type (extras | tag).'] });
  await deciderSpec(t)
    .given(journaled)
    .when(
      create('extras.journalentry', {
        assigned_object_type: 'extras.journalentry',
        assigned_object_id: 1,
        comments: 'x',
      }),
    )
    .thenThrows(ValidationError, {
      __all__: ['Journaling is not supported for this object type (extras | journal entry).'],
    });
});

test('journal entry: deleting the object deletes its entries, deleting the author unsigns them', async (t) => {
  await deciderSpec(t)
    .given([...journaled, patch('extras.journalentry', 1, { created_by: 2 })])
    .when({ kind: 'delete', model: 'auth.user', ids: [2], bulk: false })
    .then([
      { action: 'update', objectType: 'extras.journalentry', objectId: 1, postchange: { created_by: null } },
      { action: 'delete', objectType: 'auth.user', objectId: 2 },
    ]);
  await deciderSpec(t)
    .given(journaled)
    .when({ kind: 'delete', model: 'dcim.site', ids: [1], bulk: false })
    .then([
      { action: 'delete', objectType: 'extras.journalentry', objectId: 1 },
      { action: 'delete', objectType: 'dcim.site', objectId: 1 },
    ]);
});

test('saved filter: parameters must be an object of keyword arguments', async (t) => {
  await deciderSpec(t)
    .when(
      create('extras.savedfilter', { name: 'F', slug: 'f', content_types: ['dcim.site'], parameters: 'status=active' }),
    )
    .thenThrows(ValidationError, {
      parameters: ['Filter parameters must be stored as a dictionary of keyword arguments.'],
    });
  await deciderSpec(t)
    .when(
      create('extras.savedfilter', {
        name: 'F',
        slug: 'f',
        content_types: ['dcim.site'],
        parameters: { status: ['active'] },
      }),
    )
    .then([
      {
        action: 'create',
        objectType: 'extras.savedfilter',
        objectId: 1,
        objectRepr: 'F',
        postchange: { user: null, shared: true, enabled: true, weight: 100 },
      },
    ]);
});

test('custom link: only models with custom links are accepted', async (t) => {
  await deciderSpec(t)
    .when(
      create('extras.customlink', {
        name: 'L',
        content_types: ['dcim.site', 'auth.user'],
        link_text: 't',
        link_url: 'u',
      }),
    )
    .thenThrows(ValidationError, { content_types: ['Invalid content type: auth.user'] });
});

test('journal entry display: creation time to the minute, UTC, and the kind label', (t) => {
  t.is(journalDisplay({ id: 1, created: '2023-06-15T14:30:59.123456Z', kind: 'danger' }), '2023-06-15 14:30 (Danger)');
});

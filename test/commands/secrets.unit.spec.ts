import { createHash, createHmac } from 'node:crypto';

import test from 'ava';

import { ValidationError } from '../../src/errors/requestErrors.js';
import { create, deciderSpec, patch, remove, WHEN_TIME } from '../support/deciderSpec.js';

const KEY = '0123456789abcdef0123456789abcdef01234567';
const PASSWORD = 'correct horse battery staple';
const bob = create('auth.user', { username: 'bob', password: PASSWORD });

test('token: a supplied key is stored only as digest, cipher and last six characters', async (t) => {
  await deciderSpec(t)
    .given([bob])
    .when(create('users.token', { user: 1, key: KEY.toUpperCase() }))
    .then((events, reply) => {
      const [event] = events;
      t.is(events.length, 1);
      t.false(JSON.stringify(event).toLowerCase().includes(KEY), 'the key in clear is in the event');
      t.false('key' in event.postchange!);
      t.is(event.postchange!.key_last6, '234567');
      t.regex(String(event.postchange!.key_digest), /^[0-9a-f]{64}$/);
      t.regex(String(event.postchange!.key_cipher), /^v1\$/);
      t.is(event.objectRepr, `${'*'.repeat(34)}234567`, 'the change record shows the masked key');
      t.deepEqual(reply.revealed.get(1), { key: KEY }, 'the key is shown once, in the reply, lower-cased');
    });
});

test('token: a generated key is revealed once and never stored in clear', async (t) => {
  await deciderSpec(t)
    .given([bob])
    .when(create('users.token', { user: 1, description: 'ci' }))
    .then((events, reply) => {
      const key = String(reply.revealed.get(1)?.key);
      t.regex(key, /^[0-9a-f]{40}$/);
      t.false(JSON.stringify(events).includes(key));
      t.is(events[0].postchange!.key_last6, key.slice(-6));
    });
});

test('token: without ALLOW_TOKEN_RETRIEVAL no cipher of the key is kept', async (t) => {
  await deciderSpec(t, { allowTokenRetrieval: false })
    .given([bob])
    .when(create('users.token', { user: 1, key: KEY }))
    .then([{ postchange: { key_cipher: null, key_last6: '234567' } }]);
});

test('token: the digest is keyed, not a plain hash of the key', async (t) => {
  const [event] = await deciderSpec(t)
    .given([bob])
    .when(create('users.token', { user: 1, key: KEY }))
    .then([{ action: 'create' }]);
  const digest = String(event.postchange!.key_digest);
  t.not(digest, createHash('sha256').update(KEY).digest('hex'));
  t.not(digest, createHmac('sha256', '').update(KEY).digest('hex'));
});

test('token: an edit that sends no key keeps the key (keys never rotate on edit)', async (t) => {
  const [event] = await deciderSpec(t)
    .given([bob, create('users.token', { user: 1, key: KEY })])
    .when(patch('users.token', 1, { description: 'rotated?' }))
    .then([{ action: 'update', postchange: { description: 'rotated?', last_updated: WHEN_TIME } }]);
  t.is(event.postchange!.key_digest, event.prechange!.key_digest);
  t.is(event.postchange!.key_cipher, event.prechange!.key_cipher);
});

test('token: a key another token holds is refused without echoing it', async (t) => {
  const error = await deciderSpec(t)
    .given([bob, create('users.token', { user: 1, key: KEY })])
    .when(create('users.token', { user: 1, key: KEY }))
    .thenThrows(ValidationError, { key: ['Token with this Key already exists.'] });
  t.false(JSON.stringify((error as ValidationError).body).includes(KEY));
});

test('token: deleting a user cascades to its tokens, whose events still hold no key', async (t) => {
  await deciderSpec(t)
    .given([bob, create('users.token', { user: 1, key: KEY })])
    .when(remove('auth.user', 1))
    .then((events) => {
      t.deepEqual(
        events.map((e) => `${e.action} ${e.objectType} ${e.objectId}`),
        ['delete users.token 1', 'delete auth.user 1'],
      );
      t.false(JSON.stringify(events).includes(KEY));
    });
});

test('user: a password is stored as a salted scrypt hash only', async (t) => {
  await deciderSpec(t)
    .when(bob)
    .then((events) => {
      t.false(JSON.stringify(events).includes(PASSWORD));
      t.regex(String(events[0].postchange!.password), /^scrypt\$/);
    });
});

test('user: an edit without a password keeps the stored hash', async (t) => {
  const [event] = await deciderSpec(t)
    .given([bob])
    .when(patch('auth.user', 1, { first_name: 'Bob' }))
    .then([{ action: 'update', objectRepr: 'bob (Bob)', postchange: { first_name: 'Bob' } }]);
  t.is(event.postchange!.password, event.prechange!.password);
});

// Decisions are pure: the time comes from the command, so a replayed decision stamps the same date_joined.
test('user: date_joined defaults to the time of the decision', async (t) => {
  await deciderSpec(t)
    .when(bob)
    .then([{ postchange: { date_joined: WHEN_TIME } }]);
});

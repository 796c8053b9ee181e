import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import {
  type ChangeEvent,
  changeEventSchema,
  EVENT_SCHEMA_VERSION,
  EVENT_SCHEMA_VERSIONS,
} from '../../src/events/ChangeEvent.js';
import { createAjv } from '../../src/events/createAjv.js';
import { FileEventLog } from '../../src/events/file/FileEventLog.js';
import { assertValidEvents } from '../../src/events/validateEvents.js';
import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { Projector } from '../../src/projections/Projector.js';
import { makeEvent } from '../support/makeEvent.js';

/** A version-1 event exactly as the first release wrote it: no `revertOf`, v = 1. */
function v1Event(position: number, overrides: Partial<ChangeEvent> = {}): ChangeEvent {
  const event = makeEvent(position, { v: 1, ...overrides });
  delete event.revertOf;
  return event;
}

test('the current version is the last of the versions ever written; versions are additive', (t) => {
  t.is(EVENT_SCHEMA_VERSION, EVENT_SCHEMA_VERSIONS[EVENT_SCHEMA_VERSIONS.length - 1]);
  t.deepEqual(EVENT_SCHEMA_VERSIONS, [1, 2, 3, 4, 5]);
  // Every field a v1 event required is still required, nothing else became required.
  t.deepEqual([...changeEventSchema.required].sort(), [
    'action',
    'eventId',
    'objectId',
    'objectRepr',
    'objectType',
    'position',
    'postchange',
    'prechange',
    'requestId',
    'time',
    'user',
    'v',
  ]);
});

test('v3 events carry an optional idempotency record; a malformed one is refused', (t) => {
  const fingerprint = 'a'.repeat(64);
  t.notThrows(() => assertValidEvents([makeEvent(1, { idempotency: { key: 'retry-1', fingerprint } })]));
  t.notThrows(() => assertValidEvents([makeEvent(1, { idempotency: null })]));
  t.throws(() => assertValidEvents([makeEvent(1, { idempotency: { key: 'k', fingerprint: 'xyz' } })]), {
    message: /idempotency/,
  });
});

test('v4 events carry an optional webhook depth; events without it (every earlier version) still validate', (t) => {
  t.notThrows(() => assertValidEvents([makeEvent(1, { webhookDepth: 2 })]));
  t.notThrows(() => assertValidEvents([makeEvent(1, { webhookDepth: null })]));
  t.notThrows(() => assertValidEvents([v1Event(1)]));
  t.throws(() => assertValidEvents([makeEvent(1, { webhookDepth: 0 })]), { message: /webhookDepth/ });
});

test('v1 and v2 events validate; a malformed revertOf does not', (t) => {
  t.notThrows(() => assertValidEvents([v1Event(1)]));
  t.notThrows(() => assertValidEvents([makeEvent(1, { revertOf: randomUUID() })]));
  t.notThrows(() => assertValidEvents([makeEvent(1, { revertOf: null })]));
  t.throws(() => assertValidEvents([makeEvent(1, { revertOf: 'not-a-uuid' })]), { message: /revertOf/ });
});

test('a consumer can validate events with the served schema and its own ajv', (t) => {
  const validate = createAjv().compile(JSON.parse(JSON.stringify(changeEventSchema)));
  t.true(validate(v1Event(1)));
  t.true(validate(makeEvent(2, { revertOf: randomUUID() })));
  t.false(validate({ ...makeEvent(3), action: 'rename' }));
});

test('an old-version (v1) event in the log still projects, next to v2 events', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-versions-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const log = new FileEventLog({ dir });
  await log.open();
  await log.append([v1Event(1, { objectId: 1, objectRepr: 'old-site' })]);
  await log.append([
    makeEvent(2, {
      objectId: 2,
      objectRepr: 'new-site',
      revertOf: randomUUID(),
      postchange: { ...makeEvent(2).postchange!, name: 'new-site', slug: 'new-site' },
    }),
  ]);
  await log.close();

  const reopened = new FileEventLog({ dir });
  await reopened.open();
  const store = new MemoryReadStore();
  const projector = new Projector(reopened, store, registry);
  await projector.start();
  const old = await store.get('dcim.site', 1);
  t.is(old?.display, 'old-site');
  t.is(old?.name, 'site-1');
  t.is(old?._pos, 1);
  t.is((await store.get('dcim.site', 2))?.name, 'new-site');
  await projector.stop();
  await reopened.close();
});

test('v5 events may name the branch they were made in, or the branch whose merge made them', (t) => {
  t.notThrows(() => assertValidEvents([makeEvent(1, { branch: 'abcd1234' })]));
  t.notThrows(() => assertValidEvents([makeEvent(1, { mergedFrom: 'abcd1234', branch: null })]));
  t.throws(() => assertValidEvents([makeEvent(1, { branch: 'not a schema id' })]), { message: /branch/ });
});

import { randomUUID } from 'node:crypto';

import { type ChangeEvent, EVENT_SCHEMA_VERSION } from '../../src/events/ChangeEvent.js';

/** ISO 8601 UTC with microseconds, as the envelope wants. */
function nowMicros(): string {
  return new Date().toISOString().replace(/Z$/, '000Z');
}

/** A valid change event (a site created) at `position`; `overrides` replace any field. */
export function makeEvent(position: number, overrides: Partial<ChangeEvent> = {}): ChangeEvent {
  const id = position;
  return {
    v: EVENT_SCHEMA_VERSION,
    eventId: randomUUID(),
    position,
    requestId: randomUUID(),
    time: nowMicros(),
    user: { id: 1, username: 'admin' },
    action: 'create',
    objectType: 'dcim.site',
    objectId: id,
    objectRepr: `site-${id}`,
    prechange: null,
    postchange: {
      id,
      name: `site-${id}`,
      slug: `site-${id}`,
      status: 'active',
      region: null,
      group: null,
      tenant: null,
      facility: '',
      time_zone: null,
      description: `Site number ${id}`,
      physical_address: '',
      shipping_address: '',
      latitude: null,
      longitude: null,
      comments: '',
      tags: [],
      custom_fields: {},
      created: '2024-01-01T00:00:00.000000Z',
      last_updated: '2024-01-01T00:00:00.000000Z',
    },
    related: null,
    ...overrides,
  };
}

/** `count` valid events at positions first .. first+count-1, sharing one requestId (one request's batch). */
export function makeBatch(first: number, count: number, overrides: Partial<ChangeEvent> = {}): ChangeEvent[] {
  const requestId = randomUUID();
  const batch: ChangeEvent[] = [];
  for (let i = 0; i < count; i++) batch.push(makeEvent(first + i, { requestId, ...overrides }));
  return batch;
}

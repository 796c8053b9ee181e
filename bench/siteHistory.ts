/**
 * A generated history of site changes for the audit and as_of benchmarks: each site is
 * created once, then some are updated again and again (one in ten events revisits an
 * earlier site), in requests of a chosen size.
 */
import { randomUUID } from 'node:crypto';

import { formatMicros } from '../src/audit/time.js';
import { type ChangeEvent, EVENT_SCHEMA_VERSION, type EventUser } from '../src/events/ChangeEvent.js';
import { FileEventLog } from '../src/events/file/FileEventLog.js';

export const HISTORY_START_MICROS = Date.UTC(2024, 0, 1) * 1000;

export interface SiteHistoryOptions {
  events: number;
  objects: number;
  /** Events in the request that starts at `position` (default: one). */
  requestSize?: (position: number) => number;
  user?: EventUser | null;
  /** Store the id inside the documents too, as the read models do. */
  withId?: boolean;
  description?: (version: number) => string;
}

/** A site's stored form at one of its versions (`lastUpdated`: the time of the change that made it, as the service stamps it). */
export function siteDocument(
  id: number,
  version: number,
  options: Pick<SiteHistoryOptions, 'withId' | 'description'> = {},
  lastUpdated = formatMicros(HISTORY_START_MICROS + version),
): Record<string, unknown> {
  return {
    ...(options.withId ? { id } : {}),
    name: `site-${id}`,
    slug: `site-${id}`,
    status: 'active',
    region: null,
    group: null,
    tenant: null,
    facility: '',
    time_zone: null,
    description: options.description?.(version) ?? `version ${version}`,
    physical_address: '',
    shipping_address: '',
    latitude: null,
    longitude: null,
    comments: '',
    asns: [],
    tags: [],
    custom_fields: {},
    created: '2024-01-01T00:00:00.000000Z',
    last_updated: lastUpdated,
  };
}

/** The history as requests (one batch of events each), positions from 1. */
export function* siteHistory(options: SiteHistoryOptions): Generator<ChangeEvent[]> {
  const { events, objects } = options;
  const versions = new Int32Array(objects + 1);
  // Each site's last_updated is the time of its last change, as the service writes it (decideObject).
  const stamped: string[] = [];
  let position = 1;
  let created = 0;
  while (position <= events) {
    const size = Math.min(options.requestSize?.(position) ?? 1, events - position + 1);
    const requestId = randomUUID();
    const time = formatMicros(HISTORY_START_MICROS + position * 1000);
    const batch: ChangeEvent[] = [];
    for (let i = 0; i < size; i++, position++) {
      const id =
        created < objects && (position % 10 !== 0 || created === 0) ? ++created : 1 + ((position * 7919) % created);
      const version = versions[id]!++;
      batch.push({
        v: EVENT_SCHEMA_VERSION,
        eventId: randomUUID(),
        position,
        requestId,
        time,
        user: options.user === undefined ? { id: 1, username: 'admin' } : options.user,
        action: version === 0 ? 'create' : 'update',
        objectType: 'dcim.site',
        objectId: id,
        objectRepr: `site-${id}`,
        prechange: version === 0 ? null : siteDocument(id, version - 1, options, stamped[id]),
        postchange: siteDocument(id, version, options, time),
        related: null,
      });
      stamped[id] = time;
    }
    yield batch;
  }
}

/** Writes a generated history into a fresh file log in `dir`, 2,000 appends in flight at a time. */
export async function writeSiteHistoryLog(dir: string, options: SiteHistoryOptions): Promise<void> {
  const log = new FileEventLog({ dir });
  await log.open();
  let pending: Promise<void>[] = [];
  for (const batch of siteHistory(options)) {
    pending.push(log.append(batch));
    if (pending.length >= 2000) {
      await Promise.all(pending);
      pending = [];
    }
  }
  await Promise.all(pending);
  await log.close();
}

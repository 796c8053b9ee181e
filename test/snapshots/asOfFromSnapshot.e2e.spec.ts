import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { seedInfrastructure } from '../support/fixtures.js';
import { startService, type TestService } from '../support/startService.js';

const LISTS = [
  '/api/dcim/sites/',
  '/api/dcim/devices/',
  '/api/ipam/prefixes/',
  '/api/ipam/ip-addresses/',
  '/api/dcim/interfaces/',
  '/api/extras/tags/',
];

async function ok(service: TestService, method: string, route: string, body?: unknown) {
  const response = await service.api(method, route, body);
  if (response.status >= 300)
    throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Every list as of each position, with the service's own address taken out (two services, two ports). */
async function pastAnswers(service: TestService, positions: number[]): Promise<string> {
  const out: unknown[] = [];
  for (const position of positions) {
    for (const list of LISTS)
      out.push([position, list, await ok(service, 'GET', `${list}?limit=1000&as_of=${position}`)]);
  }
  return JSON.stringify(out).replaceAll(service.url, 'SERVICE');
}

test('as_of answers are the same whether the replay starts from a snapshot or from position 1: before, at and after the snapshot', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'netledger-asof-snap-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

  // A registry with prefixes (their projected depth and children), then a clean close: one snapshot.
  const first = await startService({ SNAPSHOT_EVERY_EVENTS: '1000' }, dataDir);
  const seeded = await seedInfrastructure(first);
  const snapshotAt = first.services.log.head();
  await first.close();
  t.deepEqual(readdirSync(path.join(dataDir, 'snapshots')), [
    `read-models.${String(snapshotAt).padStart(12, '0')}.snap`,
  ]);

  // After it: a child prefix (its parent's children column changes), an update, a delete.
  const withSnapshots = await startService({ SNAPSHOT_EVERY_EVENTS: '1000' }, dataDir);
  await ok(withSnapshots, 'POST', '/api/ipam/prefixes/', { prefix: '192.0.2.0/26', vrf: seeded.vrf.id });
  await ok(withSnapshots, 'PATCH', `/api/dcim/sites/${seeded.site.id}/`, { description: 'after the snapshot' });
  await ok(withSnapshots, 'DELETE', `/api/ipam/ip-addresses/${seeded.address.id}/`);
  await ok(withSnapshots, 'POST', '/api/ipam/prefixes/', { prefix: '192.0.2.0/27', vrf: seeded.vrf.id });
  const head = withSnapshots.services.log.head();
  t.true(head >= snapshotAt + 4);
  const positions = [snapshotAt - 5, snapshotAt - 1, snapshotAt, snapshotAt + 1, snapshotAt + 3, head];

  // Replayed past states (what this test is about), then the overlaid past views that serve as_of by default.
  const audit = withSnapshots.services.audit!;
  audit.pastReads = 'replay';
  const past = audit.past;
  const fromSnapshot = await pastAnswers(withSnapshots, positions);
  const replayedFromSnapshot = past.replayedEvents;
  audit.pastReads = 'overlay';
  t.is(await pastAnswers(withSnapshots, positions), fromSnapshot, 'the overlaid past views answer the same');
  await withSnapshots.close();

  const withoutSnapshots = await startService({ SNAPSHOT_EVERY_EVENTS: '0' }, dataDir);
  withoutSnapshots.services.audit!.pastReads = 'replay';
  const fromTheStart = await pastAnswers(withoutSnapshots, positions);
  const replayedFromTheStart = withoutSnapshots.services.audit!.past.replayedEvents;
  await withoutSnapshots.close();

  t.is(fromSnapshot, fromTheStart);
  t.is(
    replayedFromTheStart,
    positions.reduce((sum, p) => sum + p, 0),
    'without snapshots every build replays from position 1',
  );
  // Before the snapshot: from 1; at it: nothing; after it: only the events after it.
  const expected = snapshotAt - 5 + (snapshotAt - 1) + 0 + 1 + 3 + (head - snapshotAt);
  t.is(replayedFromSnapshot, expected, 'builds at or after the snapshot replay only the events after it');
});

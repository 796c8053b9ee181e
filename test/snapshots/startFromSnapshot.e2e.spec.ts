import { closeSync, cpSync, fstatSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { loadConfig } from '../../src/config.js';
import { openReader } from '../../src/ledger/openLedger.js';
import { startService, type TestService } from '../support/startService.js';

/** Snapshots only at a clean close (a service of these tests never applies 1,000 events). */
const ENV = { SNAPSHOT_EVERY_EVENTS: '1000', SNAPSHOT_KEEP: '5' };

function scratch(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-snapstart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function snapshotFiles(dataDir: string): string[] {
  try {
    return readdirSync(path.join(dataDir, 'snapshots'))
      .filter((name) => name.startsWith('read-models.') && name.endsWith('.snap'))
      .sort()
      .map((name) => path.join(dataDir, 'snapshots', name));
  } catch {
    return [];
  }
}

async function addSites(service: TestService, prefix: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const response = await service.api('POST', '/api/dcim/sites/', { name: `${prefix}-${i}`, slug: `${prefix}-${i}` });
    if (response.status !== 201) throw new Error(`site: ${response.status} ${JSON.stringify(response.body)}`);
  }
}

/** What a client sees of the registry: the sites (ids, names, order) and users. */
async function answers(service: TestService): Promise<unknown> {
  const sites = await service.api('GET', '/api/dcim/sites/?limit=1000&ordering=-name');
  const users = await service.api('GET', '/api/users/users/?limit=1000');
  return {
    sites: sites.body.results.map((s: any) => [s.id, s.name, s.slug, s.last_updated]),
    count: sites.body.count,
    users: users.body.results.map((u: any) => [u.id, u.username]),
  };
}

async function started(dataDir: string, env: Record<string, string> = ENV) {
  const lines: Array<Record<string, unknown>> = [];
  const service = await startService(env, dataDir, { logger: (entry) => lines.push(entry) });
  const warnings = () => lines.filter((l) => l.level === 'warn').map((l) => String(l.msg));
  return { service, lines, warnings };
}

test('a restart loads the newest snapshot and replays only the events after it; answers and id allocation are unchanged', async (t) => {
  const dataDir = scratch(t);
  const first = await started(dataDir);
  await addSites(first.service, 'a', 4);
  await first.service.close();
  const [older] = snapshotFiles(dataDir);
  t.truthy(older, 'a clean close writes a snapshot');

  const second = await started(dataDir);
  t.is(second.service.services.projector.appliedEvents, 0, 'nothing to replay after a snapshot at the head');
  await addSites(second.service, 'b', 3);
  const head = second.service.services.log.head();
  const expected = await answers(second.service);
  await second.service.close();
  const files = snapshotFiles(dataDir);
  t.is(files.length, 2);
  rmSync(files[1]!); // as if the service had stopped without a clean close

  const third = await started(dataDir);
  const olderPosition = Number(path.basename(older!).split('.')[1]);
  t.is(
    third.service.services.projector.appliedEvents,
    head - olderPosition,
    'only the tail after the snapshot is replayed',
  );
  t.true(
    third.lines.some((l) =>
      String(l.msg).startsWith(`read models loaded from the snapshot at position ${olderPosition}`),
    ),
  );
  t.deepEqual(await answers(third.service), expected);
  const created = await third.service.api('POST', '/api/dcim/sites/', { name: 'c', slug: 'c' });
  const ids = (expected as { sites: Array<[number]> }).sites.map(([id]) => id);
  t.is(created.body.id, Math.max(...ids) + 1, 'ids go on after the highest ever created');
  t.deepEqual(third.warnings(), []);
  await third.service.close();
});

test('a damaged newest snapshot is skipped with a warning and the older one used', async (t) => {
  const dataDir = scratch(t);
  const first = await started(dataDir);
  await addSites(first.service, 'a', 2);
  await first.service.close();
  const second = await started(dataDir);
  await addSites(second.service, 'b', 2);
  const head = second.service.services.log.head();
  const expected = await answers(second.service);
  await second.service.close();
  const [older, newer] = snapshotFiles(dataDir);
  // One byte of the body flipped: the checksum no longer matches.
  const fd = openSync(newer!, 'r+');
  const size = fstatSync(fd).size;
  const byte = Buffer.alloc(1);
  readSync(fd, byte, 0, 1, size - 10);
  byte[0] = byte[0]! ^ 0x20;
  writeSync(fd, byte, 0, 1, size - 10);
  closeSync(fd);

  const third = await started(dataDir);
  const olderPosition = Number(path.basename(older!).split('.')[1]);
  t.is(third.service.services.projector.appliedEvents, head - olderPosition);
  t.deepEqual(await answers(third.service), expected);
  t.true(
    third.warnings().some((w) => w.includes(path.basename(newer!)) && w.includes('unusable')),
    third.warnings().join('\n'),
  );
  await third.service.close();
});

test('a snapshot of another log is refused (the event at its position differs): the whole log is replayed', async (t) => {
  const mine = scratch(t);
  const other = scratch(t);
  const a = await started(other);
  await addSites(a.service, 'other', 2);
  await a.service.close();
  const b = await started(mine);
  await addSites(b.service, 'mine', 5);
  const head = b.service.services.log.head();
  const expected = await answers(b.service);
  await b.service.close();
  rmSync(path.join(mine, 'snapshots'), { recursive: true });
  cpSync(path.join(other, 'snapshots'), path.join(mine, 'snapshots'), { recursive: true });

  const c = await started(mine);
  t.is(c.service.services.projector.appliedEvents, head);
  t.deepEqual(await answers(c.service), expected);
  t.true(
    c.warnings().some((w) => w.includes('refused') && w.includes('not taken of this log')),
    c.warnings().join('\n'),
  );
  await c.service.close();
});

test('a snapshot beyond the end of the log (a log cut shorter, or replaced) is refused', async (t) => {
  const mine = scratch(t);
  const longer = scratch(t);
  const a = await started(longer);
  await addSites(a.service, 'longer', 6);
  await a.service.close();
  const b = await started(mine);
  const head = b.service.services.log.head();
  const expected = await answers(b.service);
  await b.service.close();
  rmSync(path.join(mine, 'snapshots'), { recursive: true });
  cpSync(path.join(longer, 'snapshots'), path.join(mine, 'snapshots'), { recursive: true });

  const c = await started(mine);
  t.is(c.service.services.projector.appliedEvents, head);
  t.deepEqual(await answers(c.service), expected);
  t.true(
    c.warnings().some((w) => w.includes('beyond the log')),
    c.warnings().join('\n'),
  );
  await c.service.close();
});

test('every SNAPSHOT_EVERY_EVENTS applied events a snapshot is written while the service runs; the oldest beyond SNAPSHOT_KEEP are removed', async (t) => {
  const dataDir = scratch(t);
  const { service, lines } = await started(dataDir, { SNAPSHOT_EVERY_EVENTS: '2', SNAPSHOT_KEEP: '2' });
  await addSites(service, 'a', 6);
  await service.close(); // waits for a write under way (and writes the last position)
  const written = lines.filter((l) => String(l.msg).startsWith('read-model snapshot written'));
  t.true(written.length >= 3, `${written.length} snapshots written`);
  for (const line of written)
    t.true(typeof line.bytes === 'number' && typeof line.ms === 'number' && typeof line.position === 'number');
  t.is(snapshotFiles(dataDir).length, 2);
});

test('SNAPSHOT_EVERY_EVENTS=0: no snapshot is written, none is read', async (t) => {
  const dataDir = scratch(t);
  const first = await started(dataDir);
  await addSites(first.service, 'a', 2);
  await first.service.close();
  t.is(snapshotFiles(dataDir).length, 1);
  const second = await started(dataDir, { SNAPSHOT_EVERY_EVENTS: '0' });
  t.is(second.service.services.projector.appliedEvents, second.service.services.log.head());
  await addSites(second.service, 'b', 1);
  await second.service.close();
  t.is(snapshotFiles(dataDir).length, 1);
});

test("a read replica starts from the writer's snapshot and writes none of its own", async (t) => {
  const dataDir = scratch(t);
  const writer = await started(dataDir);
  await addSites(writer.service, 'a', 3);
  const head = writer.service.services.log.head();
  const sites = await writer.service.services.store.count('dcim.site', {});
  await writer.service.close();
  const before = snapshotFiles(dataDir);

  const reader = await openReader(
    loadConfig({ DATA_DIR: dataDir, ROLE: 'reader', SECRET_KEY: 'test-secret-key', ...ENV }),
    { audit: false },
  );
  try {
    await reader.caughtUp;
    t.is(reader.projector.appliedEvents, 0, 'nothing replayed: the snapshot is at the head');
    t.is(reader.projector.position, head);
    t.is(await reader.store.count('dcim.site', {}), sites);
  } finally {
    await reader.close();
  }
  t.deepEqual(snapshotFiles(dataDir), before);
});

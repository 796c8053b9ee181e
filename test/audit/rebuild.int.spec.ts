import { execFile } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';

import anyTest, { type ExecutionContext, type TestFn } from 'ava';

import { exportChanges, exportRecord, parseExportArguments } from '../../src/cli/exportChanges.js';
import { rebuildReadModels } from '../../src/cli/rebuild.js';
import { fileEventSource } from '../../src/ledger/eventSource.js';
import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { changesOf, makeDevice, must, requestIdOf, unique } from '../support/auditRequests.js';
import { seedInfrastructure } from '../support/fixtures.js';
import { startService, type TestService } from '../support/startService.js';

const test = anyTest as TestFn<{ service: TestService; marks: { afterSeed: number; revertId: string } }>;
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs one of the CLIs the way `npm run` does (tsx), against the service's data directory. */
function cli(file: string, args: string[], dataDir: string) {
  return run(process.execPath, ['--import', 'tsx', path.join(ROOT, file), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, SECRET_KEY: 'test-secret-key', KAFKA_BROKERS: '', MONGODB_URL: '' },
    maxBuffer: 64 << 20,
  });
}

test.before(async (t) => {
  const service = await startService();
  await seedInfrastructure(service);
  const afterSeed = service.services.log.head();
  // Updates, a cascade, a protected delete refused, a bulk create and its revert.
  const { device } = await makeDevice(service, 3);
  await must(service.api('PATCH', `/api/dcim/devices/${device.id}/`, { serial: 'SN-1' }), 200);
  await must(service.api('DELETE', `/api/dcim/devices/${device.id}/`), 204);
  const names = [unique('rb'), unique('rb')];
  const bulk = await must(
    service.api(
      'POST',
      '/api/dcim/sites/',
      names.map((name) => ({ name, slug: name })),
    ),
    201,
  );
  const revert = await must(service.api('POST', `/api/extras/requests/${requestIdOf(bulk)}/revert/`), 200);
  await must(service.api('PATCH', '/api/ipam/prefixes/1/', { description: 'after revert' }), 200);
  // Recreated (same ids) by reverting a revert of a delete: insertion order must follow.
  const doomedName = unique('rb-doomed');
  const doomed = await must(service.api('POST', '/api/dcim/sites/', { name: doomedName, slug: doomedName }), 201);
  await must(
    service.api('POST', '/api/dcim/sites/', { name: `${doomedName}-later`, slug: `${doomedName}-later` }),
    201,
  );
  const deletion = await must(service.api('DELETE', `/api/dcim/sites/${doomed.body.id}/`), 204);
  await must(service.api('POST', `/api/extras/requests/${requestIdOf(deletion)}/revert/`), 200);
  t.context = { service, marks: { afterSeed, revertId: requestIdOf(revert) } };
});

test.after.always(async (t) => {
  await t.context.service?.close();
});

for (const windowObjects of [1, 3, 200_000]) {
  test.serial(
    `a rebuild from the log equals the live read models (compaction window of ${windowObjects} objects)`,
    async (t) => {
      await rebuildMatchesLive(t, windowObjects);
    },
  );
}

async function rebuildMatchesLive(t: ExecutionContext<{ service: TestService }>, windowObjects: number) {
  const { service } = t.context;
  const source = fileEventSource(path.join(service.dataDir, 'events.log'));
  const rebuilt = new MemoryReadStore();
  const progress: number[] = [];
  const stats = await rebuildReadModels(source.read(), rebuilt, {
    windowObjects,
    onProgress: (events) => progress.push(events),
  });
  t.is(stats.position, service.services.log.head());
  t.is(stats.events, stats.position);
  t.true(progress.length >= 1);
  t.is(source.progress(), 1);
  t.is(await rebuilt.position(), await service.services.store.position());
  let documents = 0;
  for (const definition of registry.all()) {
    // Natural order (no sort): insertion order, which breaks ties in every sort.
    const live = await service.services.store.find(definition.key, {});
    const replayed = await rebuilt.find(definition.key, {});
    t.deepEqual(replayed, live, definition.key);
    documents += live.length;
  }
  t.true(documents > 20);
  t.deepEqual(await rebuilt.maxIds(), await service.services.store.maxIds());
}

test.serial('npm run rebuild: replays the log read-only with a progress bar and a summary', async (t) => {
  const { service } = t.context;
  const head = service.services.log.head();
  const { stderr } = await cli('src/cli/rebuild.ts', ['--dry-run'], service.dataDir);
  t.regex(stderr, /rebuild: replaying .*events\.log into memory/);
  t.regex(
    stderr,
    new RegExp(
      `${head} events in [\\d.]+ s: [\\d,]+ events/s, read models at position ${head} \\(\\d+ document writes\\)\n`,
    ),
  );
  t.regex(stderr, /rebuild (100%|\[#+\])/, 'progress');
  // The service is unaffected (the log was not truncated or reopened for writing).
  await must(service.api('PATCH', '/api/ipam/prefixes/1/', { description: 'still writable' }), 200);
  const bad = await cli('src/cli/rebuild.ts', ['--bogus'], service.dataDir).catch(
    (error: { code: number; stderr: string }) => error,
  );
  t.is((bad as { code: number }).code, 2);
});

test.serial(
  'export-changes streams the history as JSON lines, selected by position, time, type and request',
  async (t) => {
    const { service, marks } = t.context;
    const collect = async (args: string[]) => {
      const chunks: string[] = [];
      const out = new Writable({
        write(chunk, _encoding, callback) {
          chunks.push(String(chunk));
          callback();
        },
      });
      const options = parseExportArguments(args);
      const count = await exportChanges(fileEventSource(path.join(service.dataDir, 'events.log')).read(), out, options);
      return { count, text: chunks.join('') };
    };

    const since = await collect(['--since', String(marks.afterSeed + 1), '--format', 'jsonl']);
    const lines = since.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    t.is(lines.length, since.count);
    t.is(lines[0].id, marks.afterSeed + 1);
    t.true(lines.every((l, i) => i === 0 || l.id === lines[i - 1].id + 1));

    // Each record is the API's object change without the nested objects.
    const api = await must(service.api('GET', `/api/extras/object-changes/${lines[0].id}/`), 200);
    for (const key of [
      'id',
      'time',
      'user_name',
      'request_id',
      'changed_object_type',
      'changed_object_id',
      'object_repr',
      'related_object_type',
      'related_object_id',
    ]) {
      t.deepEqual(lines[0][key], api.body[key], key);
    }
    t.is(lines[0].action, api.body.action.value);

    const reverts = await collect([`--request=${marks.revertId}`, '--format=json']);
    const records = JSON.parse(reverts.text);
    t.is(records.length, 2);
    t.true(records.every((r: any) => r.action === 'delete' && typeof r.revert_of === 'string'));

    const sites = await collect(['--type', 'dcim.site', '--until', String(marks.afterSeed)]);
    t.true(sites.count >= 1);
    t.true(
      sites.text
        .trim()
        .split('\n')
        .every((l) => JSON.parse(l).changed_object_type === 'dcim.site'),
    );

    const changes = await changesOf(
      service,
      requestIdOf(await must(service.api('PATCH', '/api/ipam/prefixes/1/', { description: 'timed' }), 200)),
    );
    const byTime = await collect(['--since', changes[0].time]);
    t.true(byTime.text.includes('"timed"'));

    const nothing = await collect(['--since', '2999-01-01', '--format', 'json']);
    t.is(nothing.count, 0);
    t.deepEqual(JSON.parse(nothing.text), []);
    t.throws(() => parseExportArguments(['--format', 'xml']), { message: /jsonl or json/ });
    t.throws(() => parseExportArguments(['--since', 'last tuesday']), {
      message: /not a log position or an ISO 8601 time/,
    });
  },
);

test.serial('npm run export-changes: the CLI writes JSON lines to stdout, never a secret', async (t) => {
  const { service } = t.context;
  const { stdout, stderr } = await cli(
    'src/cli/exportChanges.ts',
    ['--type', 'users.token', '--type', 'auth.user'],
    service.dataDir,
  );
  const records = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  t.true(records.length >= 2);
  t.regex(stderr, /changes exported/);
  for (const secret of ['key_digest', 'key_cipher', 'password']) t.false(stdout.includes(secret), secret);
  const first = records[0];
  t.deepEqual(Object.keys(first), Object.keys(exportRecord((await firstEvent(service))!)));
});

async function firstEvent(service: TestService) {
  for await (const batch of fileEventSource(path.join(service.dataDir, 'events.log')).read()) return batch[0];
  return undefined;
}

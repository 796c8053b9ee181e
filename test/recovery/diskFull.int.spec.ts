/**
 * The service on a full disk (ENOSPC injected at the file log's file-system boundary):
 * writes answer 503 with Retry-After, reads and the audit side keep answering, /healthz/
 * tells the truth from start-up on, the cause is logged once per incident, and once
 * space is free the writer resumes by itself, without a restart.
 */
import test from 'ava';

import { FaultyFileSystem } from '../support/faultyFileSystem.js';
import { startService, type TestService } from '../support/startService.js';

/** Retries fast, so that the test waits for the recovery, not for a back-off meant for production. */
const FAST_RETRY = { firstMs: 20, maxMs: 100 };

function captureLogs() {
  const entries: Record<string, unknown>[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];
  return {
    entries,
    logger(entry: Record<string, unknown>) {
      entries.push(entry);
      for (const w of [...waiters]) {
        if (w.pattern.test(String(entry.msg ?? ''))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
    },
    /** Resolves at the next log line matching `pattern` (or at once if one was logged already). */
    next(pattern: RegExp): Promise<void> {
      if (entries.some((e) => pattern.test(String(e.msg ?? '')))) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
    /** Lines other than the per-request ones that mention `text`. */
    about(text: string): Record<string, unknown>[] {
      return entries.filter((e) => e.method === undefined && String(e.msg ?? '').includes(text));
    },
  };
}

async function health(service: TestService) {
  const response = await fetch(`${service.url}/healthz/`);
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as any,
  };
}

test('disk full: writes answer 503 with Retry-After, reads and history keep working, and the writer resumes by itself', async (t) => {
  const disk = new FaultyFileSystem();
  const logs = captureLogs();
  const service = await startService({}, undefined, {
    logger: logs.logger,
    start: { logFileSystem: disk, writerRetry: FAST_RETRY },
  });
  let restarted: TestService | null = null;
  t.teardown(async () => {
    await restarted?.close();
    await service.close();
  });
  const site = await service.api('POST', '/api/dcim/sites/', { name: 'before', slug: 'before' });
  t.is(site.status, 201);

  disk.free = 0;
  const writes = await Promise.all([
    service.api('POST', '/api/dcim/sites/', { name: 'full-1', slug: 'full-1' }),
    service.api('POST', '/api/dcim/sites/', [
      { name: 'full-2', slug: 'full-2' },
      { name: 'full-3', slug: 'full-3' },
    ]),
    service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { description: 'lost' }),
  ]);
  writes.push(await service.api('DELETE', `/api/dcim/sites/${site.body.id}/`));
  writes.push(await service.api('POST', '/api/extras/tags/', { name: 'full-4', slug: 'full-4' }));
  for (const write of writes) {
    t.is(write.status, 503, JSON.stringify(write.body));
    t.regex(write.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    t.deepEqual(write.body, { detail: 'The service cannot accept writes right now; retry shortly.' });
  }

  const list = await service.api('GET', '/api/dcim/sites/');
  t.is(list.status, 200);
  t.deepEqual(
    list.body.results.map((s: any) => s.name),
    ['before'],
  );
  t.is((await service.api('GET', `/api/dcim/sites/${site.body.id}/`)).body.description, '');
  const changes = await service.api(
    'GET',
    `/api/extras/object-changes/?changed_object_type=dcim.site&changed_object_id=${site.body.id}`,
  );
  t.is(changes.status, 200);
  t.is(changes.body.count, 1);
  t.is((await service.api('GET', `/api/dcim/sites/${site.body.id}/history/`)).status, 200);

  const down = await health(service);
  t.is(down.status, 503);
  t.like(down.body, { status: 'unavailable', writer: 'unavailable' });
  t.regex(down.body.writer_detail.reason, /ENOSPC/);
  t.truthy(down.retryAfter);
  t.regex(await (await fetch(`${service.url}/metrics`)).text(), /^netledger_writer_up 0$/m);
  t.is(logs.about('ENOSPC').length, 1, 'the cause is logged once for the incident, not once per request');
  t.like(logs.about('ENOSPC')[0], { level: 'error' });
  t.false(logs.entries.some((e) => e.status === 500));

  disk.free = null; // an operator freed space
  await logs.next(/writes resumed/);
  const up = await health(service);
  t.is(up.status, 200);
  t.is(up.body.writer, 'up');
  const after = await service.api('POST', '/api/dcim/sites/', { name: 'after', slug: 'after' });
  t.is(after.status, 201, JSON.stringify(after.body));
  t.is(logs.about('ENOSPC').length, 1);

  await service.stop();
  restarted = await startService({}, service.dataDir);
  const sites = await restarted.api('GET', '/api/dcim/sites/');
  t.deepEqual(
    sites.body.results.map((s: any) => [s.id, s.name, s.description]).sort((a: number[], b: number[]) => a[0]! - b[0]!),
    [
      [site.body.id, 'before', ''],
      [after.body.id, 'after', ''],
    ],
  );
  const all = await restarted.api('GET', '/api/extras/object-changes/?limit=0');
  t.false(JSON.stringify(all.body).includes('full-'), 'no refused write is in the log');
});

test('started on a full disk: /healthz/ reports the writer unavailable from the first request, reads work, writes resume once space is free', async (t) => {
  const first = await startService();
  const created = await first.api('POST', '/api/extras/tags/', { name: 'kept', slug: 'kept' });
  await first.stop();

  const disk = new FaultyFileSystem();
  disk.free = 0;
  const logs = captureLogs();
  const service = await startService({}, first.dataDir, {
    logger: logs.logger,
    start: { logFileSystem: disk, writerRetry: FAST_RETRY },
  });
  t.teardown(() => first.close());
  t.teardown(() => service.close());
  const down = await health(service);
  t.is(down.status, 503);
  t.is(down.body.writer, 'unavailable');
  t.is((await service.api('GET', `/api/extras/tags/${created.body.id}/`)).body.name, 'kept');
  t.is((await service.api('POST', '/api/extras/tags/', { name: 'x', slug: 'x' })).status, 503);

  disk.free = null;
  await logs.next(/writes resumed/);
  t.is((await health(service)).status, 200);
  t.is((await service.api('POST', '/api/extras/tags/', { name: 'x', slug: 'x' })).status, 201);
});

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import type { FileEventLog } from '../../src/events/file/FileEventLog.js';
import { startService, type TestService } from '../support/startService.js';

async function ok(service: TestService, method: string, route: string, body?: unknown): Promise<any> {
  const response = await service.api(method, route, body);
  if (response.status >= 300)
    throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** What the audit side answers: every object change, a site's history, a request's changes, an idempotent retry. */
async function auditAnswers(service: TestService, requestId: string): Promise<unknown> {
  const changes = await ok(service, 'GET', '/api/extras/object-changes/?limit=1000');
  const strip = (list: any[]) =>
    list.map(({ id, request_id, action, changed_object_type, changed_object_id, object_repr, time }) => ({
      id,
      request_id,
      action,
      changed_object_type,
      changed_object_id,
      object_repr,
      time,
    }));
  return {
    count: changes.count,
    changes: strip(changes.results),
    site: strip(
      (await ok(service, 'GET', '/api/extras/object-changes/?changed_object_type=dcim.site&changed_object_id=1'))
        .results,
    ),
    request: strip((await ok(service, 'GET', `/api/extras/object-changes/?request_id=${requestId}`)).results),
    created: (await ok(service, 'GET', `/api/dcim/sites/?created_by_request=${requestId}`)).count,
  };
}

test('a restart loads the audit index and the file log from their snapshots and answers as a full rebuild does', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-snapshots-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { SNAPSHOT_EVERY_EVENTS: '5' };
  let service = await startService(env, dir);
  let requestId = '';
  for (let i = 1; i <= 12; i++) {
    const response = await service.api(
      'POST',
      '/api/dcim/sites/',
      { name: `snap-${i}`, slug: `snap-${i}` },
      { 'Idempotency-Key': `site-${i}` },
    );
    t.is(response.status, 201);
    if (i === 7) requestId = response.headers.get('x-request-id')!;
    await ok(service, 'PATCH', `/api/dcim/sites/${response.body.id}/`, { description: `v${i}` });
  }
  await service.services.audit!.snapshots!.idle();
  const before = await auditAnswers(service, requestId);
  await service.close();

  const warnings: string[] = [];
  service = await startService(env, dir, {
    logger: (entry) => void (entry.level === 'warn' && warnings.push(String(entry.msg))),
  });
  t.deepEqual(warnings, []);
  t.true(
    service.services.audit!.loadedFrom > 1,
    `audit index loaded from position ${service.services.audit!.loadedFrom}`,
  );
  t.true(
    (service.services.log as FileEventLog).openStats!.fromPosition > 1,
    'the file log was opened from a persisted point',
  );
  const after = await auditAnswers(service, requestId);
  // An Idempotency-Key used before the restart is still recognised (the idempotency index came from the snapshot).
  const retry = await service.api(
    'POST',
    '/api/dcim/sites/',
    { name: 'snap-3', slug: 'snap-3' },
    { 'Idempotency-Key': 'site-3' },
  );
  t.is(retry.status, 201);
  t.is(retry.body.name, 'snap-3');
  await service.close();

  rmSync(path.join(dir, 'snapshots'), { recursive: true, force: true });
  service = await startService({ SNAPSHOT_EVERY_EVENTS: '0', VERIFY_LOG_ON_OPEN: '1' }, dir);
  t.is(service.services.audit!.loadedFrom, 0);
  t.is((service.services.log as FileEventLog).openStats!.fromPosition, 1);
  const rebuilt = await auditAnswers(service, requestId);
  await service.close();
  // The later starts see one more change (the token's use time); compare what the first saw.
  const trim = (answers: any, count: number) => ({
    ...answers,
    count: undefined,
    changes: answers.changes.slice(-count),
  });
  t.deepEqual(trim(after, (before as any).changes.length), trim(before, (before as any).changes.length));
  t.deepEqual(trim(rebuilt, (before as any).changes.length), trim(after, (before as any).changes.length));
  t.deepEqual((rebuilt as any).changes, (after as any).changes);
});

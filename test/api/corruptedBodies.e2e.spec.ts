import test from 'ava';

import { writableFields } from '../../src/commands/writeSchema.js';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { registry } from '../../src/models/registry.js';
import { seedInfrastructure } from '../support/fixtures.js';
import { seededRandom } from '../support/seededRandom.js';
import { startService } from '../support/startService.js';

const NASTY: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 53,
  -(2 ** 63),
  'x',
  '',
  ' ',
  'a'.repeat(100_000),
  '10.0.0.1/33',
  '::/129',
  '$where',
  '.*',
  '(a+)+$',
  { $ne: null },
  { $gt: '' },
  { __proto__: { admin: true } },
  [],
  [null],
  [{}],
  [1, 'x'],
  {},
  { id: 1 },
  { name: { $regex: '.*' } },
  '9'.repeat(400),
  'null',
  'true',
  '2024-13-45',
  '\u0000',
  '<script>',
];

function isLastUsedRefresh(event: ChangeEvent): boolean {
  if (event.objectType !== 'users.token' || event.action !== 'update' || !event.prechange || !event.postchange)
    return false;
  const keys = new Set([...Object.keys(event.prechange), ...Object.keys(event.postchange)]);
  const changed = [...keys].filter((k) => JSON.stringify(event.prechange![k]) !== JSON.stringify(event.postchange![k]));
  return changed.every((k) => k === 'last_used' || k === 'last_updated');
}

test('corrupted bodies on every model get a 4xx in NetBox shape and write nothing', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await seedInfrastructure(service);
  const random = seededRandom(20261121);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  let requests = 0;
  for (const definition of registry.all()) {
    const path = `/api/${definition.app}/${definition.path}/`;
    const fields = writableFields(definition).map((f) => f.name);
    const existing = (await service.api('GET', `${path}?limit=1`)).body.results?.[0];
    for (let i = 0; i < 16; i++) {
      const body: Record<string, unknown> = {};
      const n = 1 + Math.floor(random() * 4);
      for (let j = 0; j < n; j++) body[random() < 0.8 ? pick(fields) : `unknown_${j}`] = pick(NASTY);
      for (const [method, url] of [
        ['POST', path],
        ...(existing ? [['PATCH', `${path}${existing.id}/`]] : []),
      ] as const) {
        const head = service.services.log.head();
        const response = await service.api(method, url, body);
        requests++;
        const where = `${method} ${url} ${JSON.stringify(body).slice(0, 200)}`;
        t.true(response.status < 500, `${where} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
        if (response.status >= 400) {
          t.true(response.body !== null && typeof response.body === 'object', where);
          // The admin token's once-a-minute last_used refresh may land meanwhile on a slow
          // machine (stamped with this request's id, as authentication caused it): it is no
          // trace of the refused write. Anything else of this request is.
          const requestId = response.headers.get('x-request-id');
          const written: string[] = [];
          if (service.services.log.head() > head) {
            for await (const batch of service.services.log.read(head + 1)) {
              for (const event of batch) {
                if (event.requestId === requestId && !isLastUsedRefresh(event))
                  written.push(`${event.action} ${event.objectType}`);
              }
            }
          }
          t.deepEqual(written, [], `nothing written: ${where}`);
        }
      }
    }
  }
  t.log(`${requests} corrupted requests`);
});

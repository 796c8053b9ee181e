/**
 * Free addresses come from an index the read store keeps of the used ones: after a
 * restart the read models (and that index) are rebuilt from the log, replayed in large
 * batches, and must answer as before.
 */
import test from 'ava';

import { ok } from '../support/callers.js';
import { startService } from '../support/startService.js';

const availableIps = (id: number) => `/api/ipam/prefixes/${id}/available-ips/`;
const host = (i: number) => `10.5.${i >> 8}.${i & 255}/20`;

test('after a restart, allocation and the listing see the addresses as the log left them: filled, deleted, moved', async (t) => {
  const first = await startService();
  t.teardown(() => first.close());
  const prefix = await ok(first.api('POST', '/api/ipam/prefixes/', { prefix: '10.5.0.0/20' }));
  const vrf = await ok(first.api('POST', '/api/ipam/vrfs/', { name: 'red' }));
  const created: Array<{ id: number; address: string }> = [];
  for (const from of [1, 601]) {
    created.push(
      ...(await ok(
        first.api(
          'POST',
          '/api/ipam/ip-addresses/',
          Array.from({ length: 600 }, (_, k) => ({ address: host(from + k) })),
        ),
      )),
    );
  }
  const byHost = (i: number) => created.find((ip) => ip.address === host(i))!.id;
  await ok(first.api('DELETE', '/api/ipam/ip-addresses/', [{ id: byHost(700) }]), 204);
  await ok(first.api('PATCH', '/api/ipam/ip-addresses/', [{ id: byHost(900), vrf: vrf.id }]), 200);
  const before = (await first.api('GET', `${availableIps(prefix.id)}?limit=3`)).body.map((e: any) => e.address);
  t.deepEqual(before, [host(700), host(900), host(1201)]);
  await first.stop();

  const second = await startService({}, first.dataDir);
  t.teardown(() => second.close());
  const after = await second.api('GET', `${availableIps(prefix.id)}?limit=3`);
  t.deepEqual(
    after.body.map((e: any) => e.address),
    before,
    'the listing is the same after the replay',
  );
  const allocated = await second.api('POST', availableIps(prefix.id), [{}, {}]);
  t.is(allocated.status, 201);
  t.deepEqual(
    allocated.body.map((ip: any) => ip.address),
    [host(700), host(900)],
  );
  await ok(second.api('DELETE', '/api/ipam/ip-addresses/', [{ id: byHost(5) }]), 204);
  const next = await second.api('POST', availableIps(prefix.id), {});
  t.is(next.body.address, host(5));
  t.is((await second.api('POST', availableIps(prefix.id), {})).body.address, host(1201));
});

import test from 'ava';
import { startService } from '../support/startService.js';

test('a prefix shows how many prefixes it contains and how deep it sits, per VRF', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const vrf = (await service.api('POST', '/api/ipam/vrfs/', { name: 'Blue' })).body;
  const created = (await service.api('POST', '/api/ipam/prefixes/', [
    { prefix: '10.0.0.0/8' },
    { prefix: '10.1.0.0/16' },
    { prefix: '10.1.1.0/24' },
    { prefix: '10.2.0.0/16' },
    { prefix: '10.1.1.0/24', vrf: vrf.id },
    { prefix: '2001:db8::/32' },
  ])).body;
  const read = async (i: number) => (await service.api('GET', `/api/ipam/prefixes/${created[i].id}/`)).body;
  t.like(await read(0), { children: 3, _depth: 0 });
  t.like(await read(1), { children: 1, _depth: 1 });
  t.like(await read(2), { children: 0, _depth: 2 });
  t.like(await read(3), { children: 0, _depth: 1 });
  t.like(await read(4), { children: 0, _depth: 0 }, 'another VRF is another hierarchy');
  t.like(await read(5), { children: 0, _depth: 0 }, 'families do not mix');
  const brief = (await service.api('GET', '/api/ipam/prefixes/?brief=1&limit=3')).body.results;
  t.deepEqual(brief.map((p: any) => p._depth), [0, 1, 2]);
});

import { rmSync } from 'node:fs';

import test from 'ava';

import { startService } from '../support/startService.js';

test('a prefix shows how many prefixes it contains and how deep it sits, per VRF', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const vrf = (await service.api('POST', '/api/ipam/vrfs/', { name: 'Blue' })).body;
  const created = (
    await service.api('POST', '/api/ipam/prefixes/', [
      { prefix: '10.0.0.0/8' },
      { prefix: '10.1.0.0/16' },
      { prefix: '10.1.1.0/24' },
      { prefix: '10.2.0.0/16' },
      { prefix: '10.1.1.0/24', vrf: vrf.id },
      { prefix: '2001:db8::/32' },
    ])
  ).body;
  const read = async (i: number) => (await service.api('GET', `/api/ipam/prefixes/${created[i].id}/`)).body;
  t.like(await read(0), { children: 3, _depth: 0 });
  t.like(await read(1), { children: 1, _depth: 1 });
  t.like(await read(2), { children: 0, _depth: 2 });
  t.like(await read(3), { children: 0, _depth: 1 });
  t.like(await read(4), { children: 0, _depth: 0 }, 'another VRF is another hierarchy');
  t.like(await read(5), { children: 0, _depth: 0 }, 'families do not mix');
  const brief = (await service.api('GET', '/api/ipam/prefixes/?brief=1&limit=3')).body.results;
  t.deepEqual(
    brief.map((p: any) => p._depth),
    [0, 1, 2],
  );
});

test('depth and children filters answer from the kept columns; a container keeps its ETag when a child comes; a restart rebuilds the same', async (t) => {
  const service = await startService();
  let open = true;
  t.teardown(() => (open ? service.close() : rmSync(service.dataDir, { recursive: true, force: true })));
  const vrf = (await service.api('POST', '/api/ipam/vrfs/', { name: 'Blue' })).body;
  const created = (
    await service.api('POST', '/api/ipam/prefixes/', [
      { prefix: '10.0.0.0/8' },
      { prefix: '10.1.0.0/16' },
      { prefix: '10.1.1.0/24' },
      { prefix: '10.2.0.0/16' },
      { prefix: '10.1.1.0/24', vrf: vrf.id },
      { prefix: '2001:db8::/32' },
      { prefix: '2001:db8:1::/48' },
    ])
  ).body;
  const [p8, p16, p24, other16, blue24, v6, v6child] = created.map((p: any) => p.id);
  const ids = async (query: string) => {
    const response = await service.api('GET', `/api/ipam/prefixes/?${query}`);
    t.is(response.status, 200, `${query}: ${JSON.stringify(response.body)}`);
    return response.body.results.map((p: any) => p.id).sort((a: number, b: number) => a - b);
  };
  const asc = (...list: number[]) => list.sort((a, b) => a - b);
  t.deepEqual(await ids('depth=0'), asc(p8, blue24, v6));
  t.deepEqual(await ids('depth=1&depth=2'), asc(p16, p24, other16, v6child));
  t.deepEqual(await ids('depth__gte=2'), [p24]);
  t.deepEqual(await ids('depth__lt=1&family=6'), [v6]);
  t.deepEqual(await ids('depth__n=0'), asc(p16, p24, other16, v6child));
  t.deepEqual(await ids('children=0'), asc(p24, other16, blue24, v6child));
  t.deepEqual(await ids('children__gt=1'), [p8]);
  t.deepEqual(await ids('children__gte=1&children__lte=1'), asc(p16, v6));
  t.is((await service.api('GET', '/api/ipam/prefixes/?depth=x')).status, 400);

  // A new child changes the container's count, not its version.
  const before = await service.api('GET', `/api/ipam/prefixes/${p16}/`);
  const child = await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.1.2.0/24' });
  t.like(child.body, { children: 0, _depth: 2 }, 'the write response shows the columns');
  const after = await service.api('GET', `/api/ipam/prefixes/${p16}/`);
  t.is(after.body.children, 2);
  t.is(after.headers.get('etag'), before.headers.get('etag'));
  t.is(
    (
      await service.api(
        'PATCH',
        `/api/ipam/prefixes/${p16}/`,
        { description: 'x' },
        { 'If-Match': before.headers.get('etag')! },
      )
    ).status,
    200,
  );
  // A VRF change moves a subtree's counts.
  t.is((await service.api('PATCH', `/api/ipam/prefixes/${p8}/`, { vrf: vrf.id })).status, 200);
  t.deepEqual(await ids('depth=0&family=4'), asc(p8, p16, other16));
  const rendered = async () =>
    (await service.api('GET', '/api/ipam/prefixes/?limit=0')).body.results.map((p: any) => [
      p.id,
      p.children,
      p._depth,
    ]);
  const live = await rendered();
  t.deepEqual(
    live.find((r: number[]) => r[0] === p8),
    [p8, 1, 0],
  );
  t.deepEqual(
    live.find((r: number[]) => r[0] === blue24),
    [blue24, 0, 1],
  );

  await service.stop();
  open = false;
  const restarted = await startService({}, service.dataDir);
  t.teardown(() => restarted.close());
  const listed = await restarted.api('GET', '/api/ipam/prefixes/?limit=0');
  t.is(listed.status, 200, JSON.stringify(listed.body));
  const again = listed.body.results.map((p: any) => [p.id, p.children, p._depth]);
  t.deepEqual(again, live, 'replayed at start: the same columns');
  t.deepEqual(
    (await restarted.api('GET', '/api/ipam/prefixes/?children__gte=1')).body.count,
    live.filter((r: number[]) => r[1] >= 1).length,
  );
});

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { as, grant, userWithToken } from '../support/callers.js';
import { startService } from '../support/startService.js';

test('a list answers 304 to the tag it gave until something is written; other queries, callers and forms have their own tags', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api('POST', '/api/dcim/sites/', [
    { name: 'a', slug: 'a' },
    { name: 'b', slug: 'b' },
  ]);

  const first = await service.api('GET', '/api/dcim/sites/');
  const etag = first.headers.get('etag')!;
  t.regex(etag, /^W\/"p\d+\.[\w-]+"$/);
  const again = await service.api('GET', '/api/dcim/sites/', undefined, { 'If-None-Match': etag });
  t.is(again.status, 304);
  t.is(again.body, null, 'no body');
  t.is(again.headers.get('etag'), etag);
  t.is((await service.api('HEAD', '/api/dcim/sites/', undefined, { 'If-None-Match': `"other", ${etag}` })).status, 304);

  // Another query, form or renderer is another page.
  for (const [path, headers] of [
    ['/api/dcim/sites/?name=a', {}],
    ['/api/dcim/sites/?brief=1', {}],
    ['/api/dcim/sites/', { Accept: 'application/json; indent=4' }],
  ] as const) {
    const other = await service.api('GET', path, undefined, { 'If-None-Match': etag, ...headers });
    t.is(other.status, 200, path);
    t.not(other.headers.get('etag'), etag, path);
  }

  // A caller who sees less has a tag of its own.
  const viewer = await userWithToken(service, 'viewer');
  await grant(service, {
    object_types: ['dcim.site'],
    actions: ['view'],
    users: [viewer.user.id],
    constraints: { slug: 'a' },
  });
  await as(service, viewer.key)('GET', '/api/'); // the token's first use is recorded (a write)
  const narrow = await as(service, viewer.key)('GET', '/api/dcim/sites/');
  t.is(narrow.body.count, 1);
  const seen = await service.api('GET', '/api/dcim/sites/');
  const stranger = await as(service, viewer.key)('GET', '/api/dcim/sites/', undefined, {
    'If-None-Match': seen.headers.get('etag')!,
  });
  t.is(stranger.status, 200, "another caller's tag does not match");
  t.is(stranger.body.count, 1);

  // Any write moves the position: the old tag no longer matches, and the new page shows the change.
  const before = (await service.api('GET', '/api/dcim/sites/')).headers.get('etag')!;
  await service.api('PATCH', '/api/dcim/sites/1/', { name: 'renamed' });
  const after = await service.api('GET', '/api/dcim/sites/', undefined, { 'If-None-Match': before });
  t.is(after.status, 200);
  t.true(after.body.results.some((s: { name: string }) => s.name === 'renamed'));
  t.not(after.headers.get('etag'), before);
});

test('If-None-Match: * on a list is 304; a malformed tag is simply no match', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  t.is((await service.api('GET', '/api/dcim/sites/', undefined, { 'If-None-Match': '*' })).status, 304);
  t.is((await service.api('GET', '/api/dcim/sites/', undefined, { 'If-None-Match': 'garbage' })).status, 200);
});

test('an object answers 304 to its version until something its rendering shows changes', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = (await service.api('POST', '/api/dcim/sites/', { name: 'a', slug: 'a' })).body;
  const other = (await service.api('POST', '/api/dcim/sites/', { name: 'b', slug: 'b' })).body;
  const group = (await service.api('POST', '/api/ipam/vlan-groups/', { name: 'g', slug: 'g' })).body;
  const vlan = (await service.api('POST', '/api/ipam/vlans/', { vid: 10, name: 'ten', site: site.id })).body;

  const read = await service.api('GET', `/api/ipam/vlans/${vlan.id}/`);
  const etag = read.headers.get('etag')!;
  t.regex(etag, /^"\d+"$/, 'the tag is the version If-Match takes');
  const again = await service.api('GET', `/api/ipam/vlans/${vlan.id}/`, undefined, { 'If-None-Match': etag });
  t.is(again.status, 304);
  t.is(again.body, null);
  t.is(again.headers.get('etag'), etag);
  t.is(
    (await service.api('GET', `/api/ipam/vlans/${vlan.id}/`, undefined, { 'If-None-Match': '"1"' })).status,
    200,
    'another version',
  );

  // A write to something the rendering does not read leaves the copy current.
  await service.api('PATCH', `/api/ipam/vlan-groups/${group.id}/`, { description: 'x' });
  t.is((await service.api('GET', `/api/ipam/vlans/${vlan.id}/`, undefined, { 'If-None-Match': etag })).status, 304);

  // A renamed site shows in the nested site: the same version, but the copy is stale.
  await service.api('PATCH', `/api/dcim/sites/${other.id}/`, { name: 'b2' });
  const renamed = await service.api('GET', `/api/ipam/vlans/${vlan.id}/`, undefined, { 'If-None-Match': etag });
  t.is(renamed.status, 200);
  t.is(renamed.headers.get('etag'), etag, 'still the same version for If-Match');

  // Renderings that are not kept (?fields=) are always sent.
  t.is(
    (await service.api('GET', `/api/ipam/vlans/${vlan.id}/?fields=id`, undefined, { 'If-None-Match': etag })).status,
    200,
  );
});

test('an object written before the service started is sent again: what its copy showed then is not known', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'netledger-etag-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const service = await startService({}, dataDir);
  const tag = (await service.api('POST', '/api/extras/tags/', { name: 't', slug: 't' })).body;
  const etag = (await service.api('GET', `/api/extras/tags/${tag.id}/`)).headers.get('etag')!;
  t.is((await service.api('GET', `/api/extras/tags/${tag.id}/`, undefined, { 'If-None-Match': etag })).status, 304);
  await service.close();
  const restarted = await startService({}, dataDir);
  t.teardown(() => restarted.close());
  t.is((await restarted.api('GET', `/api/extras/tags/${tag.id}/`, undefined, { 'If-None-Match': etag })).status, 200);
});

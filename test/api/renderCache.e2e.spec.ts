import test from 'ava';

import { seededRandom } from '../support/seededRandom.js';
import { startService, type TestService } from '../support/startService.js';

/** The same read, past the render cache (?exclude= of a field no model has makes a rendering the cache does not keep). */
function uncached(path: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}exclude=not_a_field`;
}

async function ok(service: TestService, method: string, path: string, body?: unknown) {
  const response = await service.api(method, path, body);
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function cacheCounters(service: TestService) {
  const text = String((await service.api('GET', '/metrics')).body);
  const read = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  return { hits: read('netledger_render_cache_hits_total'), misses: read('netledger_render_cache_misses_total') };
}

test('render cache: after every random change, cached reads equal fresh renderings', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const random = seededRandom(20261124);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;

  const tenants = await ok(
    service,
    'POST',
    '/api/tenancy/tenants/',
    [1, 2, 3].map((i) => ({ name: `tenant ${i}`, slug: `tenant-${i}` })),
  );
  const sites = await ok(
    service,
    'POST',
    '/api/dcim/sites/',
    [1, 2, 3].map((i) => ({ name: `site ${i}`, slug: `site-${i}`, tenant: tenants[i - 1].id })),
  );
  const racks = await ok(
    service,
    'POST',
    '/api/dcim/racks/',
    sites.flatMap((s: any) => [1, 2].map((i) => ({ name: `rack ${s.id}.${i}`, site: s.id }))),
  );
  const manufacturer = await ok(service, 'POST', '/api/dcim/manufacturers/', { name: 'maker', slug: 'maker' });
  const type = await ok(service, 'POST', '/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: 'box',
    slug: 'box',
  });
  const role = await ok(service, 'POST', '/api/dcim/device-roles/', { name: 'role', slug: 'role', color: '00ff00' });
  const tags = await ok(
    service,
    'POST',
    '/api/extras/tags/',
    [1, 2, 3].map((i) => ({ name: `tag ${i}`, slug: `tag-${i}` })),
  );
  const devices = await ok(
    service,
    'POST',
    '/api/dcim/devices/',
    Array.from({ length: 12 }, (_, i) => ({
      name: `dev ${i}`,
      device_type: type.id,
      device_role: role.id,
      site: sites[i % 3].id,
      tags: [tags[i % 3].id],
    })),
  );
  const interfaces: number[] = [];
  let interfaceNames = 0;
  const customFields: string[] = [];
  const prefixes: number[] = [];

  const reads = () => {
    const device = pick(devices as any[]).id;
    return [
      '/api/dcim/devices/?limit=0',
      '/api/dcim/devices/?brief=1&limit=0',
      `/api/dcim/devices/${device}/`,
      '/api/dcim/sites/',
      '/api/dcim/racks/',
      '/api/tenancy/tenants/',
      '/api/extras/tags/',
      '/api/dcim/interfaces/?limit=0',
      '/api/dcim/device-types/',
      '/api/dcim/manufacturers/?brief=true',
      `/api/dcim/sites/${pick(sites as any[]).id}/`,
      '/api/ipam/prefixes/?limit=0',
    ];
  };

  // Nested prefixes: a new one changes its containers' children and its contents' depth, not their versions.
  const addPrefix = async () => {
    const length = pick([8, 16, 24]);
    const octets = [10, Math.floor(random() * 2), Math.floor(random() * 2), 0].map((o, i) =>
      i === 0 || i * 8 < length ? o : 0,
    );
    const created = await ok(service, 'POST', '/api/ipam/prefixes/', { prefix: `${octets.join('.')}/${length}` });
    prefixes.push(created.id);
  };

  const changes: Array<() => Promise<unknown>> = [
    () =>
      ok(service, 'PATCH', `/api/tenancy/tenants/${pick(tenants as any[]).id}/`, {
        name: `tenant ${Math.floor(random() * 1e6)}`,
      }),
    () =>
      ok(service, 'PATCH', `/api/dcim/sites/${pick(sites as any[]).id}/`, {
        name: `site ${Math.floor(random() * 1e6)}`,
        tenant: random() < 0.3 ? null : pick(tenants as any[]).id,
      }),
    async () => {
      const device = pick(devices as any[]);
      const site = pick(sites as any[]);
      const rack = random() < 0.5 ? null : pick((racks as any[]).filter((r) => r.site.id === site.id)).id;
      return ok(service, 'PATCH', `/api/dcim/devices/${device.id}/`, { site: site.id, rack });
    },
    async () => {
      const created = await ok(service, 'POST', '/api/dcim/interfaces/', {
        device: pick(devices as any[]).id,
        name: `eth${interfaceNames++}`,
        type: '1000base-t',
      });
      interfaces.push(created.id);
    },
    async () => {
      if (interfaces.length === 0) return;
      const id = interfaces.splice(Math.floor(random() * interfaces.length), 1)[0];
      await service.api('DELETE', `/api/dcim/interfaces/${id}/`);
    },
    () =>
      ok(service, 'PATCH', `/api/dcim/devices/${pick(devices as any[]).id}/`, {
        tags: (tags as any[]).filter(() => random() < 0.5).map((tag) => tag.id),
      }),
    () =>
      ok(service, 'PATCH', `/api/extras/tags/${pick(tags as any[]).id}/`, {
        name: `tag ${Math.floor(random() * 1e6)}`,
        color: pick(['ff0000', '00ff00', '0000ff']),
      }),
    async () => {
      const name = `cf_${customFields.length}`;
      const object = random() < 0.5;
      await ok(service, 'POST', '/api/extras/custom-fields/', {
        name,
        type: object ? 'object' : 'text',
        ...(object ? { object_type: 'tenancy.tenant' } : {}),
        content_types: ['dcim.device'],
      });
      customFields.push(name);
    },
    async () => {
      if (customFields.length === 0) return;
      const name = pick(customFields);
      const value =
        name.endsWith('0') || random() < 0.5 ? `text ${Math.floor(random() * 1e6)}` : pick(tenants as any[]).id;
      // A value of the wrong kind is refused (400): nothing changes, and the reads must still agree.
      await service.api('PATCH', `/api/dcim/devices/${pick(devices as any[]).id}/`, {
        custom_fields: { [name]: value },
      });
    },
    () => ok(service, 'PATCH', `/api/dcim/device-types/${type.id}/`, { model: `box ${Math.floor(random() * 1e6)}` }),
    () =>
      ok(service, 'PATCH', `/api/dcim/manufacturers/${manufacturer.id}/`, {
        name: `maker ${Math.floor(random() * 1e6)}`,
      }),
    addPrefix,
    addPrefix,
    addPrefix,
    async () => {
      if (prefixes.length === 0) return;
      const id = prefixes.splice(Math.floor(random() * prefixes.length), 1)[0];
      await service.api('DELETE', `/api/ipam/prefixes/${id}/`);
    },
    () =>
      ok(
        service,
        'PATCH',
        '/api/dcim/devices/',
        (devices as any[])
          .filter(() => random() < 0.4)
          .map((d) => ({ id: d.id, status: pick(['active', 'planned', 'offline']) })),
      ),
  ];

  for (let step = 0; step < 60; step++) {
    // Read first (filling the cache), then change, then compare every read with a fresh rendering.
    for (const path of reads()) await service.api('GET', path);
    await pick(changes)();
    for (const path of reads()) {
      const [cached, fresh] = await Promise.all([service.api('GET', path), service.api('GET', uncached(path))]);
      t.is(cached.status, 200, path);
      t.deepEqual(cached.body, fresh.body, `step ${step}: ${path}`);
    }
  }
  const counters = await cacheCounters(service);
  t.true(counters.hits > 1000, `the cache served objects (${counters.hits} hits, ${counters.misses} misses)`);
});

test('render cache: a cached page is the same JSON in every renderer, and off when RENDER_CACHE_MB=0', async (t) => {
  const service = await startService();
  const off = await startService({ RENDER_CACHE_MB: '0' });
  t.teardown(() => Promise.all([service.close(), off.close()]));
  for (const s of [service, off]) {
    await ok(s, 'POST', '/api/dcim/sites/', [
      { name: 'α\u2028site', slug: 'a' },
      { name: 'b', slug: 'b' },
    ]);
  }
  for (const s of [service, off]) {
    await s.api('GET', '/api/dcim/sites/'); // fills the cache
    const compact = await fetch(`${s.url}/api/dcim/sites/`, {
      headers: { Authorization: 'Token 0123456789abcdef0123456789abcdef01234567' },
    });
    const text = await compact.text();
    t.is(compact.headers.get('content-type'), 'application/json');
    t.true(text.includes('\\u2028'), 'line separators escaped as in every other answer');
    t.is(Number(compact.headers.get('content-length')), Buffer.byteLength(text));
    const indented = await s.api('GET', '/api/dcim/sites/', undefined, { Accept: 'application/json; indent=4' });
    t.deepEqual(indented.body, JSON.parse(text));
    const html = await fetch(`${s.url}/api/dcim/sites/?format=api`, {
      headers: { Authorization: 'Token 0123456789abcdef0123456789abcdef01234567' },
    });
    t.true((await html.text()).includes('site'), 'the browsable page shows the cached rows');
  }
  t.is((await cacheCounters(off)).hits, 0);
  t.true((await cacheCounters(service)).hits > 0);
});

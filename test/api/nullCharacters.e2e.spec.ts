import test from 'ava';

import { startService } from '../support/startService.js';

const NUL = 'Null characters are not allowed.';

test('a NUL character in any string is refused in NetBox words, single or bulk, and nothing is written', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = (await service.api('POST', '/api/dcim/sites/', { name: 'S', slug: 's' })).body;
  const head = service.services.log.head();

  const created = await service.api('POST', '/api/dcim/sites/', { name: 'A\u0000', slug: 'a', description: '\u0000' });
  t.is(created.status, 400);
  t.deepEqual(created.body, { name: [NUL], description: [NUL] });

  const patched = await service.api('PATCH', `/api/dcim/sites/${site.id}/`, { comments: '\u0000' });
  t.is(patched.status, 400);
  t.deepEqual(patched.body, { comments: [NUL] });

  // a nullable string, of another model
  const rack = await service.api('POST', '/api/dcim/racks/', { name: 'R', site: site.id, facility_id: 'f\u0000' });
  t.deepEqual(rack.body, { facility_id: [NUL] });
  const tenant = await service.api('POST', '/api/tenancy/tenants/', { name: 'T\u0000', slug: 't' });
  t.deepEqual(tenant.body, { name: [NUL] });

  const bulk = await service.api('POST', '/api/extras/tags/', [
    { name: 'A', slug: 'a' },
    { name: 'B', slug: 'b', description: 'd\u0000' },
  ]);
  t.is(bulk.status, 400);
  t.deepEqual(bulk.body, [{}, { description: [NUL] }]);
  t.is(service.services.log.head(), head, 'nothing written');
  t.is((await service.api('GET', '/api/extras/tags/')).body.count, 0);
  t.is((await service.api('GET', `/api/dcim/sites/${site.id}/`)).body.comments, '');
});

test('a NUL character in a custom field text value is refused under __all__', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  for (const field of [
    { name: 'code', type: 'text' },
    { name: 'homepage', type: 'url' },
  ]) {
    const body = { content_types: ['dcim.site'], ...field };
    const created = await service.api('POST', '/api/extras/custom-fields/', body);
    t.is(created.status, 201);
  }
  const head = service.services.log.head();
  const site = (custom_fields: Record<string, unknown>) =>
    service.api('POST', '/api/dcim/sites/', { name: 'S', slug: 's', custom_fields });
  const text = await site({ code: 'a\u0000' });
  t.is(text.status, 400);
  t.deepEqual(text.body, { __all__: [`Invalid value for custom field 'code': ${NUL}`] });
  const url = await site({ homepage: 'http://x/\u0000' });
  t.deepEqual(url.body, { __all__: [`Invalid value for custom field 'homepage': ${NUL}`] });
  t.is(service.services.log.head(), head);
});

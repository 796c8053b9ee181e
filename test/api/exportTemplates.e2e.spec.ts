import test from 'ava';
import { startService } from '../support/startService.js';

test('?export= renders the named template over every filtered object, with its MIME type and as a named attachment', async (t) => {
  const service = await startService({ PAGINATE_COUNT: '2' });
  t.teardown(() => service.close());
  for (const [name, status] of [['B-site', 'active'], ['A-site', 'active'], ['C-site', 'planned']]) {
    await service.api('POST', '/api/dcim/sites/', { name, slug: name.toLowerCase(), status });
  }
  const template = await service.api('POST', '/api/extras/export-templates/', {
    name: 'CSV',
    content_types: ['dcim.site'],
    template_code: 'name,status\r\n{% for site in queryset %}{{ site.name }},{{ site.status.value }}\r\n{% endfor %}{{ queryset.all() | length }} sites',
    mime_type: 'text/csv',
    file_extension: 'csv',
  });
  t.is(template.status, 201);

  const all = await service.api('GET', '/api/dcim/sites/?export=CSV');
  t.is(all.status, 200);
  t.is(all.body, 'name,status\nA-site,active\nB-site,active\nC-site,planned\n3 sites', 'every object (no paging), in the list order, CRLF as LF');
  t.is(all.headers.get('content-type'), 'text/csv');
  t.is(all.headers.get('content-disposition'), 'attachment; filename="netbox_sites.csv"');

  const active = await service.api('GET', '/api/dcim/sites/?export=CSV&status=active&ordering=-name');
  t.is(active.body, 'name,status\nB-site,active\nA-site,active\n2 sites', 'filters and ordering apply');

  await service.api('PATCH', `/api/extras/export-templates/${template.body.id}/`, { as_attachment: false, mime_type: '' });
  const inline = await service.api('GET', '/api/dcim/sites/?export=CSV');
  t.is(inline.headers.get('content-type'), 'text/plain; charset=utf-8');
  t.is(inline.headers.get('content-disposition'), null);

  t.is((await service.api('GET', '/api/dcim/sites/?export=Nope')).status, 404);
  t.is((await service.api('GET', '/api/dcim/racks/?export=CSV')).status, 404, 'a template serves the models it is attached to only');
});

test("export templates: 'table' is a reserved name; content_types filters", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const reserved = await service.api('POST', '/api/extras/export-templates/', { name: 'Table', content_types: ['dcim.site'], template_code: 'x' });
  t.is(reserved.status, 400);
  t.deepEqual(reserved.body, { name: ['"Table" is a reserved name. Please choose a different name.'] });
  await service.api('POST', '/api/extras/export-templates/', { name: 'one', content_types: ['dcim.site', 'dcim.rack'], template_code: 'x' });
  t.is((await service.api('GET', '/api/extras/export-templates/?content_types=dcim.rack')).body.count, 1);
  t.is((await service.api('GET', '/api/extras/export-templates/?content_types=dcim.device')).body.count, 0);
});

test('?export= with ?ordering=<relation> orders by the related objects as the list does', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const zulu = (await service.api('POST', '/api/dcim/sites/', { name: 'zulu', slug: 'zulu' })).body;
  const alpha = (await service.api('POST', '/api/dcim/sites/', { name: 'alpha', slug: 'alpha' })).body;
  await service.api('POST', '/api/dcim/racks/', [
    { name: 'r1', site: zulu.id },
    { name: 'r2', site: alpha.id },
    { name: 'r3', site: zulu.id },
  ]);
  await service.api('POST', '/api/extras/export-templates/', {
    name: 'names',
    content_types: ['dcim.rack'],
    template_code: '{% for rack in queryset %}{{ rack.name }} {% endfor %}',
  });
  const list = await service.api('GET', '/api/dcim/racks/?ordering=site');
  const listed = list.body.results.map((r: { name: string }) => r.name).join(' ');
  t.is(listed, 'r2 r1 r3', "by the site's name (alpha before zulu), not its id");
  const exported = await service.api('GET', '/api/dcim/racks/?export=names&ordering=site');
  t.is(exported.body.trim(), listed);
});

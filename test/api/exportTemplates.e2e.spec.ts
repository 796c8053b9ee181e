import { randomUUID } from 'node:crypto';

import test from 'ava';

import { startService } from '../support/startService.js';

const TEMPLATES = '/api/extras/export-templates/';

test('?export= renders the named template over every filtered object, with its MIME type and as a named attachment', async (t) => {
  const service = await startService({ PAGINATE_COUNT: '2' });
  t.teardown(() => service.close());
  for (const [name, status] of [
    ['B-site', 'active'],
    ['A-site', 'active'],
    ['C-site', 'planned'],
  ]) {
    await service.api('POST', '/api/dcim/sites/', { name, slug: name.toLowerCase(), status });
  }
  const template = await service.api('POST', '/api/extras/export-templates/', {
    name: 'CSV',
    content_types: ['dcim.site'],
    template_code:
      'name,status\r\n{% for site in queryset %}{{ site.name }},{{ site.status.value }}\r\n{% endfor %}{{ queryset.all() | length }} sites',
    mime_type: 'text/csv',
    file_extension: 'csv',
  });
  t.is(template.status, 201);

  const all = await service.api('GET', '/api/dcim/sites/?export=CSV');
  t.is(all.status, 200);
  t.is(
    all.body,
    'name,status\nA-site,active\nB-site,active\nC-site,planned\n3 sites',
    'every object (no paging), in the list order, CRLF as LF',
  );
  t.is(all.headers.get('content-type'), 'text/csv');
  t.is(all.headers.get('content-disposition'), 'attachment; filename="netbox_sites.csv"');

  const active = await service.api('GET', '/api/dcim/sites/?export=CSV&status=active&ordering=-name');
  t.is(active.body, 'name,status\nB-site,active\nA-site,active\n2 sites', 'filters and ordering apply');

  await service.api('PATCH', `/api/extras/export-templates/${template.body.id}/`, {
    as_attachment: false,
    mime_type: '',
  });
  const inline = await service.api('GET', '/api/dcim/sites/?export=CSV');
  t.is(inline.headers.get('content-type'), 'text/plain; charset=utf-8');
  t.is(inline.headers.get('content-disposition'), null);

  t.is((await service.api('GET', '/api/dcim/sites/?export=Nope')).status, 404);
  t.is(
    (await service.api('GET', '/api/dcim/racks/?export=CSV')).status,
    404,
    'a template serves the models it is attached to only',
  );
});

test("export templates: 'table' is a reserved name; content_types filters", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const reserved = await service.api('POST', '/api/extras/export-templates/', {
    name: 'Table',
    content_types: ['dcim.site'],
    template_code: 'x',
  });
  t.is(reserved.status, 400);
  t.deepEqual(reserved.body, { name: ['"Table" is a reserved name. Please choose a different name.'] });
  await service.api('POST', '/api/extras/export-templates/', {
    name: 'one',
    content_types: ['dcim.site', 'dcim.rack'],
    template_code: 'x',
  });
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

test('export templates: a MIME type or file extension that would break the headers is refused on write', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const base = { content_types: ['dcim.site'], template_code: 'x' };
  const badTypes = ['text/csv\r\nSet-Cookie: a=b', 'text/html\n', 'text', 'text/csv; charset="utf-8"'];
  badTypes.push('text/csv\u0000', 'text /csv', 'téxt/csv');
  for (const [i, mime_type] of badTypes.entries()) {
    const refused = await service.api('POST', TEMPLATES, { ...base, name: `m${i}`, mime_type });
    t.is(refused.status, 400, JSON.stringify(mime_type));
    t.deepEqual(Object.keys(refused.body), ['mime_type'], JSON.stringify(mime_type));
  }
  const badExtensions = ['csv"; filename="x.html', 'csv;x=y', 'c sv', 'csv\r\n', 'a/b', "c'sv", 'csv\t', 'csvé'];
  for (const [i, file_extension] of badExtensions.entries()) {
    const refused = await service.api('POST', TEMPLATES, { ...base, name: `x${i}`, file_extension });
    t.is(refused.status, 400, JSON.stringify(file_extension));
    t.deepEqual(Object.keys(refused.body), ['file_extension'], JSON.stringify(file_extension));
  }
  t.is((await service.api('GET', '/api/extras/export-templates/')).body.count, 0, 'nothing written');
  const good = [
    { mime_type: 'text/csv', file_extension: 'csv' },
    { mime_type: 'text/csv; charset=utf-8', file_extension: 'tar.gz' },
    { mime_type: 'application/vnd.ms-excel', file_extension: '' },
    { mime_type: '', file_extension: 'j2' },
  ];
  for (const [i, values] of good.entries()) {
    const created = await service.api('POST', '/api/extras/export-templates/', { ...base, name: `ok${i}`, ...values });
    t.is(created.status, 201, JSON.stringify(created.body));
  }
});

test('?export= serves a template stored with an unsafe MIME type or extension as text, without one', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api('POST', '/api/dcim/sites/', { name: 'A', slug: 'a' });
  const template = { name: 'T', content_types: ['dcim.site'], template_code: 'x' };
  const created = await service.api('POST', '/api/extras/export-templates/', template);
  t.is(created.status, 201);
  // as an older version of the service recorded them: straight into the log, past today's checks
  await service.services.coordinator.execute({ requestId: randomUUID(), user: null }, async (tx) => {
    const before = (await tx.view.get('extras.exporttemplate', created.body.id))!;
    tx.record({
      action: 'update',
      objectType: 'extras.exporttemplate',
      objectId: created.body.id,
      objectRepr: 'T',
      prechange: before,
      postchange: { ...before, mime_type: 'text/csv\r\nX-Injected: 1', file_extension: 'csv"; foo="bar' },
    });
  });
  const served = await service.api('GET', '/api/dcim/sites/?export=T');
  t.is(served.status, 200);
  t.is(served.body, 'x');
  t.is(served.headers.get('content-type'), 'text/plain; charset=utf-8');
  t.is(served.headers.get('x-injected'), null);
  t.is(served.headers.get('content-disposition'), 'attachment; filename="netbox_sites"');
  // still editable without first correcting them: a PATCH checks only what it sends
  const renamed = await service.api('PATCH', `${TEMPLATES}${created.body.id}/`, { description: 'kept' });
  t.is(renamed.status, 200, JSON.stringify(renamed.body));
  const fixed = await service.api('PATCH', `${TEMPLATES}${created.body.id}/`, {
    mime_type: 'text/csv',
    file_extension: 'csv',
  });
  t.is(fixed.status, 200, JSON.stringify(fixed.body));
  t.is((await service.api('GET', '/api/dcim/sites/?export=T')).headers.get('content-type'), 'text/csv');
});

test('?export= answers carry nosniff, and a sandboxing Content-Security-Policy when shown inline', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api('POST', '/api/dcim/sites/', { name: 'A', slug: 'a' });
  await service.api('POST', '/api/extras/export-templates/', {
    name: 'page',
    content_types: ['dcim.site'],
    template_code: '<script>alert(1)</script>{% for s in queryset %}{{ s.name }}{% endfor %}',
    mime_type: 'text/html',
    as_attachment: false,
  });
  const inline = await service.api('GET', '/api/dcim/sites/?export=page');
  t.is(inline.status, 200);
  t.is(inline.headers.get('content-type'), 'text/html');
  t.is(inline.headers.get('content-disposition'), null);
  t.is(inline.headers.get('x-content-type-options'), 'nosniff');
  const policy = inline.headers.get('content-security-policy') ?? '';
  t.regex(policy, /(^|;)\s*sandbox\s*(;|$)/);
  t.regex(policy, /default-src 'none'/);
});

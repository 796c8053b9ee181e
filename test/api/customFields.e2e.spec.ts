import test from 'ava';

import { startService } from '../support/startService.js';

async function withFields(fields: Array<Record<string, unknown>>) {
  const service = await startService();
  for (const field of fields) {
    const response = await service.api('POST', '/api/extras/custom-fields/', {
      content_types: ['dcim.site'],
      ...field,
    });
    if (response.status !== 201) throw new Error(JSON.stringify(response.body));
  }
  return service;
}

test('every site carries every custom field: defaults on create, null when unset', async (t) => {
  const service = await withFields([
    { name: 'owner', type: 'text', default: 'netops' },
    { name: 'rack_count_limit', type: 'integer' },
  ]);
  t.teardown(() => service.close());
  const site = await service.api('POST', '/api/dcim/sites/', { name: 'S', slug: 's' });
  t.deepEqual(site.body.custom_fields, { owner: 'netops', rack_count_limit: null });
  const patched = await service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, {
    custom_fields: { rack_count_limit: 12 },
  });
  t.deepEqual(patched.body.custom_fields, { owner: 'netops', rack_count_limit: 12 });
  const other = await service.api('POST', '/api/dcim/racks/', { name: 'R', site: site.body.id });
  t.deepEqual(other.body.custom_fields, {}, 'fields apply only to their content types');
});

test('values are checked against their definitions, under __all__', async (t) => {
  const service = await withFields([
    { name: 'code', type: 'text', validation_regex: '^[A-Z]{3}$' },
    { name: 'floors', type: 'integer', validation_minimum: 1, validation_maximum: 50 },
    { name: 'ratio', type: 'decimal' },
    { name: 'managed', type: 'boolean' },
    { name: 'opened', type: 'date' },
    { name: 'tier', type: 'select', choices: ['gold', 'silver'] },
    { name: 'zones', type: 'multiselect', choices: ['a', 'b'] },
    { name: 'homepage', type: 'url' },
    { name: 'extra', type: 'json' },
  ]);
  t.teardown(() => service.close());
  const cases: Array<[string, unknown, string | null]> = [
    ['code', 'ABC', null],
    ['code', 'abcd', "Invalid value for custom field 'code': Value must match regex '^[A-Z]{3}$'"],
    ['code', 5, "Invalid value for custom field 'code': Value must be a string."],
    ['floors', 3, null],
    ['floors', 0, "Invalid value for custom field 'floors': Value must be at least 1"],
    ['floors', 51, "Invalid value for custom field 'floors': Value must not exceed 50"],
    ['floors', '3', "Invalid value for custom field 'floors': Value must be an integer."],
    ['ratio', 1.5, null],
    ['ratio', 'x', "Invalid value for custom field 'ratio': Value must be a decimal."],
    ['managed', true, null],
    ['managed', 'yes', "Invalid value for custom field 'managed': Value must be true or false."],
    ['opened', '2024-02-29', null],
    ['opened', '29/02/2024', "Invalid value for custom field 'opened': Date values must be in the format YYYY-MM-DD."],
    ['tier', 'gold', null],
    [
      'tier',
      'bronze',
      "Invalid value for custom field 'tier': Invalid choice (bronze). Available choices are: gold, silver",
    ],
    ['zones', ['a', 'b'], null],
    ['zones', ['c'], "Invalid value for custom field 'zones': Invalid choice(s) (c). Available choices are: a, b"],
    ['homepage', 'https://example.com/', null],
    ['extra', { any: ['json'] }, null],
    ['colour', 'red', "Unknown field name 'colour' in custom field data."],
  ];
  let n = 0;
  for (const [name, value, error] of cases) {
    const response = await service.api('POST', '/api/dcim/sites/', {
      name: `S${n}`,
      slug: `s${n++}`,
      custom_fields: { [name]: value },
    });
    if (error === null) {
      t.is(response.status, 201, `${name}=${JSON.stringify(value)} ${JSON.stringify(response.body)}`);
      t.deepEqual(response.body.custom_fields[name], value);
    } else {
      t.is(response.status, 400, `${name}=${JSON.stringify(value)}`);
      t.deepEqual(response.body, { __all__: [error] });
    }
  }
});

test('a required custom field must be given and not empty', async (t) => {
  const service = await withFields([{ name: 'owner', type: 'text', required: true }]);
  t.teardown(() => service.close());
  const missing = await service.api('POST', '/api/dcim/sites/', { name: 'S', slug: 's', custom_fields: {} });
  t.deepEqual(missing.body, { __all__: ["Missing required custom field 'owner'."] });
  const empty = await service.api('POST', '/api/dcim/sites/', { name: 'S', slug: 's', custom_fields: { owner: '' } });
  t.deepEqual(empty.body, { __all__: ["Invalid value for custom field 'owner': Required field cannot be empty."] });
  const ok = await service.api('POST', '/api/dcim/sites/', { name: 'S', slug: 's', custom_fields: { owner: 'me' } });
  t.is(ok.status, 201);
});

test('object custom fields store ids and render nested objects', async (t) => {
  const service = await withFields([
    { name: 'backup_site', type: 'object', object_type: 'dcim.site' },
    { name: 'peers', type: 'multiobject', object_type: 'dcim.site' },
  ]);
  t.teardown(() => service.close());
  const a = (await service.api('POST', '/api/dcim/sites/', { name: 'A', slug: 'a' })).body;
  const b = await service.api('POST', '/api/dcim/sites/', {
    name: 'B',
    slug: 'b',
    custom_fields: { backup_site: a.id, peers: [{ slug: 'a' }] },
  });
  t.is(b.status, 201, JSON.stringify(b.body));
  t.is(b.body.custom_fields.backup_site.name, 'A');
  t.deepEqual(
    b.body.custom_fields.peers.map((p: any) => p.id),
    [a.id],
  );
  // NetBox resolves object values with the field checks: the error is the field's, not the model's (__all__)
  const bad = await service.api('POST', '/api/dcim/sites/', {
    name: 'C',
    slug: 'c',
    custom_fields: { backup_site: 999 },
  });
  t.is(bad.status, 400);
  t.deepEqual(bad.body, { custom_fields: ['Unknown related object(s): 999'] });
  const badPeer = await service.api('POST', '/api/dcim/sites/', {
    name: 'C',
    slug: 'c',
    custom_fields: { peers: [{ slug: 'nowhere' }] },
  });
  t.deepEqual(badPeer.body, { custom_fields: ["Unknown related object(s): [{'slug': 'nowhere'}]"] });
});

test('custom field definitions are validated', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const post = (body: Record<string, unknown>) =>
    service.api('POST', '/api/extras/custom-fields/', { content_types: ['dcim.site'], ...body });
  t.deepEqual((await post({ name: 'x', type: 'select' })).body, {
    choices: ['Selection fields must specify at least one choice.'],
  });
  t.deepEqual((await post({ name: 'x', type: 'object' })).body, {
    object_type: ['Object fields must define an object type.'],
  });
  t.deepEqual((await post({ name: 'x', type: 'text', validation_minimum: 3 })).body, {
    validation_minimum: ['A minimum value may be set only for numeric fields'],
  });
  t.deepEqual((await post({ name: 'x', type: 'text', content_types: ['dcim.nothing'] })).body, {
    content_types: ['Invalid content type: dcim.nothing'],
  });
  const backreference = await post({ name: 'x', type: 'text', validation_regex: '(a)\\1' });
  t.is(backreference.status, 400);
  t.regex(
    backreference.body.validation_regex?.[0] ?? '',
    /^\(a\)\\1 is not supported: only regular expressions that match in linear time/,
  );
  t.deepEqual((await post({ name: 'x', type: 'text', validation_regex: '(' })).body, {
    validation_regex: ['( is not a valid regular expression.'],
  });
  const created = await post({ name: 'ticket_ID', type: 'integer' });
  t.is(created.body.display, 'Ticket id');
  t.is(created.body.data_type, 'integer');
  const retype = await service.api('PATCH', `/api/extras/custom-fields/${created.body.id}/`, { type: 'text' });
  t.deepEqual(retype.body, { type: ['Changing the type of custom fields is not supported.'] });
});

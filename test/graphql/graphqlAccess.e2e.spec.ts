import anyTest, { type TestFn } from 'ava';

import { as, grant, ok, userWithToken } from '../support/callers.js';
import { seedInfrastructure } from '../support/fixtures.js';
import { startService, type TestService } from '../support/startService.js';

const test = anyTest as TestFn<{ service: TestService; seeded: any; edge2: any; edge2Iface: any }>;

test.before(async (t) => {
  const service = await startService({ GRAPHQL_MAX_DEPTH: '6', GRAPHQL_MAX_ALIASES: '3', GRAPHQL_MAX_COST: '50000' });
  const seeded: any = await seedInfrastructure(service);
  const edge2 = await ok(
    service.api('POST', '/api/dcim/devices/', {
      name: 'edge2',
      device_type: seeded.deviceType.id,
      device_role: seeded.deviceRole.id,
      site: seeded.site.id,
    }),
  );
  const edge2Iface = await ok(
    service.api('POST', '/api/dcim/interfaces/', { device: edge2.id, name: 'xe-0/0/1', type: '10gbase-x-sfpp' }),
  );
  t.context = { service, seeded, edge2, edge2Iface };
});
test.after.always(async (t) => {
  await t.context.service?.close();
});

const post = (service: TestService, key: string | null, query: string, variables?: unknown, path = '/graphql/') =>
  as(service, key)('POST', path, { query, variables });

test('objects reached at any depth are filtered by the caller’s view permissions and constraints', async (t) => {
  const { service, seeded } = t.context;
  const viewer = await userWithToken(service, 'gql-viewer', { token: { write_enabled: false } });
  await grant(service, { object_types: ['dcim.site', 'dcim.interface'], actions: ['view'], users: [viewer.user.id] });
  await grant(service, {
    object_types: ['dcim.device'],
    actions: ['view'],
    users: [viewer.user.id],
    constraints: { name: 'edge1' },
  });
  const answer = await post(
    service,
    viewer.key,
    `query($site: Int!) {
      site(id: $site) { name devices { name interfaces { name ip_addresses { address } } } }
      device_list { name }
      interface_list(ordering: "name") { name device { name } }
      ip_address_list { address }
    }`,
    { site: seeded.site.id },
  );
  t.is(answer.status, 200, JSON.stringify(answer.body));
  const { data, errors } = answer.body;
  t.deepEqual(data.site, {
    name: 'DC-1',
    devices: [{ name: 'edge1', interfaces: [{ name: 'et-0/0/0', ip_addresses: [] }] }],
  });
  t.deepEqual(data.device_list, [{ name: 'edge1' }]);
  t.deepEqual(data.interface_list, [
    { name: 'et-0/0/0', device: { name: 'edge1' } },
    { name: 'xe-0/0/1', device: null },
  ]);
  t.is(data.ip_address_list, null);
  t.deepEqual(errors, [
    {
      message: 'You do not have permission to perform this action.',
      locations: [{ line: 5, column: 7 }],
      path: ['ip_address_list'],
    },
  ]);

  // the same caller's REST list agrees
  const rest = await as(service, viewer.key)('GET', '/api/dcim/devices/');
  t.deepEqual(
    rest.body.results.map((d: any) => d.name),
    ['edge1'],
  );
  // an object outside the constraints is not found, as the REST detail's 404
  const hidden = await post(service, viewer.key, `{ device(id: ${t.context.edge2.id}) { name } }`);
  t.is(hidden.body.data.device, null);
  t.is(hidden.body.errors[0].message, 'Device matching query does not exist.');
});

test('anonymous callers: EXEMPT_VIEW_PERMISSIONS and LOGIN_REQUIRED apply as for REST', async (t) => {
  const { service } = t.context;
  const anonymous = await post(service, null, '{ site_list { name } }');
  t.is(anonymous.status, 200);
  t.is(anonymous.body.data.site_list, null);
  t.is(anonymous.body.errors[0].message, 'Authentication credentials were not provided.');

  const open = await startService({ EXEMPT_VIEW_PERMISSIONS: 'dcim.site' });
  t.teardown(() => open.close());
  await ok(open.api('POST', '/api/dcim/sites/', { name: 'Open', slug: 'open' }));
  const exempt = await post(open, null, '{ site_list { name devices { name } } token_list { id } }');
  t.deepEqual(exempt.body.data.site_list, [{ name: 'Open', devices: [] }]);
  t.is(exempt.body.data.token_list, null);

  const closed = await startService({ LOGIN_REQUIRED: 'true', EXEMPT_VIEW_PERMISSIONS: '*' });
  t.teardown(() => closed.close());
  const refused = await post(closed, null, '{ site_list { name } }');
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { detail: 'Authentication credentials were not provided.' });
  t.is((await post(closed, (await userWithToken(closed, 'someone')).key, '{ site_list { name } }')).status, 200);
});

test('the bounds are refused before anything runs, with a GraphQL error naming the setting', async (t) => {
  const { service } = t.context;
  const deep = await post(
    service,
    null,
    '{ site_list(limit: 1) { devices { interfaces { device { site { region { parent { name } } } } } } } }',
  );
  t.is(deep.status, 400);
  t.regex(deep.body.errors[0].message, /deeper than 6 levels \(GRAPHQL_MAX_DEPTH\)/);
  t.false('data' in deep.body);
  const aliased = await post(
    service,
    null,
    '{ a: site_list(limit: 1) { id } b: site_list(limit: 1) { id } c: site_list(limit: 1) { id } d: site_list(limit: 1) { id } }',
  );
  t.is(aliased.status, 400);
  t.regex(aliased.body.errors[0].message, /more than 3 aliases \(GRAPHQL_MAX_ALIASES\)/);
  const costly = await post(service, null, '{ device_list { interfaces { ip_addresses { address } } } }');
  t.is(costly.status, 400);
  t.regex(costly.body.errors[0].message, /more than 50000 objects \(GRAPHQL_MAX_COST\)/);
  // a fragment spread many times counts every time
  const spread = await post(
    service,
    null,
    'fragment D on DeviceType { interfaces { name } } { device_list(limit: 100) { ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D ...D } }',
  );
  t.is(spread.status, 400);
  // a limit brings the estimate under the bound; introspection is not counted
  const small = await post(service, null, '{ device_list(limit: 10) { interfaces { ip_addresses { address } } } }');
  t.is(small.status, 200, JSON.stringify(small.body));
  const introspection = await post(
    service,
    null,
    '{ __schema { types { name fields { name type { name ofType { name ofType { name ofType { name } } } } } } } }',
  );
  t.is(introspection.status, 200);
  t.true(introspection.body.data.__schema.types.some((type: any) => type.name === 'SiteType'));
});

test('a chain of fragments that doubles at each step is refused before it is walked out', async (t) => {
  const { service } = t.context;
  const links = Array.from({ length: 40 }, (_, i) => `fragment F${i} on SiteType { ...F${i + 1} ...F${i + 1} }`);
  const chain = `{ site_list(limit: 1) { ...F0 } } ${links.join(' ')} fragment F40 on SiteType { __typename }`;
  const answer = await post(service, null, chain);
  t.is(answer.status, 400);
  t.regex(answer.body.errors[0].message, /expands to more than 100000 selections/);
  t.false('data' in answer.body);
});

test('bad input answers GraphQL errors naming the problem: 400 before running, 200 beside data while running', async (t) => {
  const { service } = t.context;
  const syntax = await post(service, null, '{ site_list { name }');
  t.is(syntax.status, 400);
  t.regex(syntax.body.errors[0].message, /^Syntax Error/);
  const unknownField = await post(service, null, '{ site_list { nmae } }');
  t.is(unknownField.status, 400);
  t.regex(unknownField.body.errors[0].message, /Cannot query field "nmae" on type "SiteType"/);
  const unknownArgument = await post(service, null, '{ site_list(colour: "red") { name } }');
  t.is(unknownArgument.status, 400);
  t.regex(unknownArgument.body.errors[0].message, /Unknown argument "colour" on field "Query.site_list"/);
  const wrongVariable = await post(service, null, 'query($id: Int!) { site(id: $id) { name } }', { id: 'one' });
  t.is(wrongVariable.status, 400);
  t.regex(wrongVariable.body.errors[0].message, /Variable "\$id" got invalid value "one"/);
  // nesting that would overflow graphql-js's recursive parser is refused before it is parsed
  for (const deep of [
    `{ ${'site_list { '.repeat(3000)}id${' }'.repeat(3001)}`,
    `{ site_list(name: ${'['.repeat(9000)}"x"${']'.repeat(9000)}) { id } }`,
  ]) {
    const refused = await post(service, null, deep);
    t.is(refused.status, 400);
    t.is(refused.body.errors[0].message, 'Query nests brackets more than 100 levels deep.');
  }
  t.is((await post(service, null, '')).status, 400);
  // a body the JSON reader refuses answers a GraphQL error too (REST's answer is {"detail"})
  const textBody = await as(service, null)('POST', '/graphql/', 'query=x', { 'Content-Type': 'text/plain' });
  t.deepEqual(
    [textBody.status, textBody.body],
    [415, { errors: [{ message: 'Unsupported media type "text/plain" in request.' }] }],
  );
  const notJson = await fetch(`${service.url}/graphql/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"query": "{ site_list { name } }"',
  });
  t.is(notJson.status, 400);
  t.regex((await notJson.json()).errors[0].message, /^JSON parse error - /);
  const nested = await post(
    service,
    null,
    '{ site_list { name } }',
    JSON.parse(`{"v":${'['.repeat(40)}${']'.repeat(40)}}`),
  );
  t.deepEqual([nested.status, nested.body], [400, { errors: [{ message: 'JSON nested too deeply.' }] }]);
  t.is(
    (await as(service, null)('POST', '/api/dcim/sites/', 'x', { 'Content-Type': 'text/plain' })).body.detail,
    'Unsupported media type "text/plain" in request.',
    'REST keeps its shape',
  );
  t.is((await as(service, null)('POST', '/graphql/', [1])).status, 400);
  t.is((await as(service, null)('GET', '/graphql/?query=%7Bsite_list%7Bname%7D&variables=%7Bbad')).status, 400);
  t.is((await as(service, null)('PUT', '/graphql/', {})).status, 405);
  const mutation = await post(service, null, 'mutation { x }');
  t.is(mutation.status, 400);
  t.regex(mutation.body.errors[0].message, /not configured to execute mutation/);

  const badFilter = await service.api('POST', '/graphql/', { query: '{ site_list(status: "bogus") { name } }' });
  t.is(badFilter.status, 200);
  t.is(badFilter.body.data.site_list, null);
  t.regex(
    badFilter.body.errors[0].message,
    /^status: Select a valid choice\. bogus is not one of the available choices\./,
  );
});

test('filters take REST names and lookups, several values as lists; GET works too', async (t) => {
  const { service } = t.context;
  const admin = (query: string, variables?: unknown) => service.api('POST', '/graphql/', { query, variables });
  const byName = await admin('{ device_list(name: ["edge1", "edge2"], ordering: "-name") { name } }');
  t.deepEqual(byName.body.data.device_list, [{ name: 'edge2' }, { name: 'edge1' }]);
  const lookup = await admin('{ device_list(name__ic: "GE2") { name } }');
  t.deepEqual(lookup.body.data.device_list, [{ name: 'edge2' }]);
  const negated = await admin(`query($site: [String]) { device_list(site_id: $site, name__n: "edge2") { name } }`, {
    site: [String(t.context.seeded.site.id)],
  });
  t.deepEqual(negated.body.data.device_list, [{ name: 'edge1' }]);
  const paged = await admin('{ device_list(limit: 1, offset: 1, ordering: "name") { name } }');
  t.deepEqual(paged.body.data.device_list, [{ name: 'edge2' }]);
  const generic = await admin(
    `{ ip_address(id: ${t.context.seeded.address.id}) { address assigned_object { __typename ... on InterfaceType { name } } } }`,
  );
  t.deepEqual(generic.body.data.ip_address, {
    address: '192.0.2.1/25',
    assigned_object: { __typename: 'InterfaceType', name: 'et-0/0/0' },
  });
  // a many-to-many field listed from its target, under NetBox's related name (Site.asns: an ASN's sites)
  const rir = await ok(service.api('POST', '/api/ipam/rirs/', { name: 'RIR m2m', slug: 'rir-m2m' }));
  const asn = await ok(service.api('POST', '/api/ipam/asns/', { asn: 64999, rir: rir.id }));
  await ok(service.api('PATCH', `/api/dcim/sites/${t.context.seeded.site.id}/`, { asns: [asn.id] }), 200);
  const sites = await admin(`{ asn(id: ${asn.id}) { asn rir { name } sites { name asns { asn } } } }`);
  t.deepEqual(sites.body.data.asn, {
    asn: 64999,
    rir: { name: 'RIR m2m' },
    sites: [{ name: 'DC-1', asns: [{ asn: 64999 }] }],
  });
  const typed = await service.api(
    'POST',
    '/graphql/',
    { query: '{ nothing }' },
    { Accept: 'application/graphql-response+json' },
  );
  t.is(typed.status, 400);
  t.is(typed.headers.get('content-type'), 'application/graphql-response+json');
  const got = await service.api('GET', `/graphql/?query=${encodeURIComponent('{ site_list(name: "DC-1") { name } }')}`);
  t.deepEqual(got.body, { data: { site_list: [{ name: 'DC-1' }] } });
  // operationName picks one of several operations, by POST and by GET, with variables
  const two = 'query A { site_list { id } } query B($n: [String]) { site_list(name: $n) { name } }';
  const b = await service.api('POST', '/graphql/', { query: two, operationName: 'B', variables: { n: ['DC-1'] } });
  t.deepEqual(b.body, { data: { site_list: [{ name: 'DC-1' }] } });
  const params = new URLSearchParams({ query: two, operationName: 'B', variables: JSON.stringify({ n: ['DC-1'] }) });
  t.deepEqual((await service.api('GET', `/graphql/?${params}`)).body, b.body);
  const unnamed = await service.api('POST', '/graphql/', { query: two });
  t.is(unnamed.status, 400);
  t.is(unnamed.body.errors[0].message, 'Must provide operation name if query contains multiple operations.');
  const unknown = await service.api('POST', '/graphql/', { query: two, operationName: 'C' });
  t.is(unknown.status, 400);
  t.is(unknown.body.errors[0].message, 'Unknown operation named "C".');
});

test('GraphiQL, its assets and the SDL are served locally', async (t) => {
  const { service } = t.context;
  const page = await fetch(`${service.url}/graphql/`, { headers: { Accept: 'text/html' } });
  t.is(page.status, 200);
  const html = await page.text();
  t.regex(html, /graphiql\.min\.js/);
  t.notRegex(html, /https?:\/\//, 'nothing from another origin');
  for (const file of [
    'graphiql.min.js',
    'graphiql.min.css',
    'react.production.min.js',
    'react-dom.production.min.js',
    'graphiql-init.js',
  ]) {
    t.is((await fetch(`${service.url}/graphql/static/${file}`)).status, 200, file);
  }
  t.is((await fetch(`${service.url}/graphql/static/package.json`)).status, 404);
  const sdl = await (await fetch(`${service.url}/graphql/schema.graphql`)).text();
  t.regex(sdl, /type SiteType \{/);
  t.regex(sdl, /site_list\(/);
  t.is(await (await fetch(`${service.url}/graphql/?sdl`)).text(), sdl);
});

test('as_of reads the same query at a past position, under the REST rule', async (t) => {
  const { service } = t.context;
  const site = await ok(service.api('POST', '/api/dcim/sites/', { name: 'Before', slug: 'before-asof' }));
  const position = service.services.log.head();
  await ok(service.api('PATCH', `/api/dcim/sites/${site.id}/`, { name: 'After' }), 200);
  const query = `{ site(id: ${site.id}) { name } }`;
  const past = await service.api('POST', `/graphql/?as_of=${position}`, { query });
  t.is(past.status, 200, JSON.stringify(past.body));
  t.deepEqual(past.body.data, { site: { name: 'Before' } });
  t.deepEqual((await service.api('POST', '/graphql/', { query })).body.data, { site: { name: 'After' } });
  const viewer = await userWithToken(service, 'gql-asof');
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [viewer.user.id] });
  t.is((await as(service, viewer.key)('POST', `/graphql/?as_of=${position}`, { query })).status, 403);
});

test('lists longer than the estimate are stopped at GRAPHQL_MAX_COST objects read, with an error', async (t) => {
  const service = await startService({ GRAPHQL_MAX_COST: '5', GRAPHQL_LIST_ESTIMATE: '1' });
  t.teardown(() => service.close());
  const seeded: any = await seedInfrastructure(service);
  const { deviceType, deviceRole, site } = seeded;
  await ok(
    service.api(
      'POST',
      '/api/dcim/devices/',
      [1, 2, 3, 4, 5].map((i) => ({
        name: `d${i}`,
        device_type: deviceType.id,
        device_role: deviceRole.id,
        site: site.id,
      })),
    ),
  );
  const answer = await service.api('POST', '/graphql/', {
    query: `{ site(id: ${site.id}) { name devices { name } } }`,
  });
  t.is(answer.status, 200);
  t.deepEqual(answer.body.data, { site: { name: 'DC-1', devices: null } });
  t.regex(answer.body.errors[0].message, /^Query read more than 5 objects \(GRAPHQL_MAX_COST\)/);
  t.deepEqual(answer.body.errors[0].path, ['site', 'devices']);
});

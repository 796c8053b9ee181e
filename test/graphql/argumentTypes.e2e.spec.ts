/**
 * The list queries' filter arguments are typed as NetBox 3.4.10 types them (its schema,
 * netbox-3.4.10-schema.json, printed from its own code), the types derived from the REST filter
 * set (src/api/graphql/listArguments.ts); and NetBox-style queries using those types answer what
 * the same REST query string answers.
 */
import { readFileSync } from 'node:fs';

import anyTest, { type TestFn } from 'ava';

import { buildSchema } from '../../src/api/graphql/schema.js';
import { registry } from '../../src/models/registry.js';
import { ok } from '../support/callers.js';
import { seedInfrastructure } from '../support/fixtures.js';
import { startService, type TestService } from '../support/startService.js';

const test = anyTest as TestFn<{ service: TestService; seeded: any }>;

/** NetBox's list arguments, `name` for [String] and `name:Type` otherwise (see registryForms.e2e.spec.ts). */
const NETBOX_LISTS: Record<string, string> = JSON.parse(
  readFileSync(new URL('netbox-3.4.10-schema.json', import.meta.url), 'utf8'),
).lists;

test('every list argument NetBox 3.4.10 has is typed as NetBox types it', (t) => {
  const query = buildSchema(registry).getQueryType()!.getFields();
  const differ: string[] = [];
  let compared = 0;
  for (const [list, args] of Object.entries(NETBOX_LISTS)) {
    const ours = new Map(query[list]!.args.map((a) => [a.name, String(a.type)]));
    for (const arg of args.split(' ').filter(Boolean)) {
      const [name, type = '[String]'] = arg.split(':');
      const mine = ours.get(name!);
      if (mine === undefined) continue; // arguments we lack: registryForms' test and README list them
      compared++;
      if (mine !== type) differ.push(`${list}(${name}: ${type}) is ${mine} here`);
    }
  }
  t.deepEqual(differ, []);
  // every type NetBox uses appears among those compared, so none is compared only by its default
  t.true(compared > 5000, `${compared} arguments compared`);
});

test.before(async (t) => {
  const service = await startService();
  const seeded = await seedInfrastructure(service);
  t.context = { service, seeded };
});
test.after.always(async (t) => {
  await t.context.service?.close();
});

const ids = (rows: Array<{ id: string | number }>) => rows.map((r) => Number(r.id));

/** The GraphQL answer's ids and the REST list's ids for the same filters; the GraphQL errors if any. */
async function both(
  service: TestService,
  list: string,
  restPath: string,
  rest: string,
  query: string,
  variables?: unknown,
): Promise<{ graphql: number[]; rest: number[]; errors: unknown }> {
  const answer = await service.api('POST', '/graphql/', { query, variables });
  const restAnswer = await ok(service.api('GET', `${restPath}?${rest}&limit=1000`), 200);
  return {
    graphql: answer.body.data?.[list] ? ids(answer.body.data[list]) : [],
    rest: ids(restAnswer.results),
    errors: answer.body.errors,
  };
}

test('NetBox-style queries: Int literal and variable, Boolean, one String variable, string lists, DateTime', async (t) => {
  const { service, seeded } = t.context;
  await ok(service.api('PATCH', `/api/dcim/interfaces/${seeded.iface.id}/`, { mode: 'access', enabled: false }), 200);
  await ok(service.api('POST', '/api/ipam/ip-addresses/', { address: '2001:db8::1/64' }));
  await ok(service.api('POST', '/api/ipam/prefixes/', { prefix: '198.51.100.0/24' }));

  // Int literal (NetBox's NumberFilter `family`)
  const literal = await both(
    service,
    'ip_address_list',
    '/api/ipam/ip-addresses/',
    'family=4',
    '{ ip_address_list(family: 4) { id } }',
  );
  t.is(literal.errors, undefined);
  t.deepEqual(literal.graphql, literal.rest);
  t.deepEqual(literal.graphql, [seeded.address.id]);

  // Int variable, and NetBox's separate number filters mask_length__gte / vlan_vid__gte
  const variable = await both(
    service,
    'prefix_list',
    '/api/ipam/prefixes/',
    'family=4&mask_length__gte=25&vlan_vid__gte=100',
    'query($f: Int, $m: Int, $v: Int) { prefix_list(family: $f, mask_length__gte: $m, vlan_vid__gte: $v) { id } }',
    { f: 4, m: 25, v: 100 },
  );
  t.is(variable.errors, undefined);
  t.deepEqual(variable.graphql, [seeded.prefix.id]);
  t.deepEqual(variable.graphql, variable.rest);

  // Boolean literal
  const disabled = await both(
    service,
    'interface_list',
    '/api/dcim/interfaces/',
    'enabled=false',
    '{ interface_list(enabled: false) { id } }',
  );
  t.is(disabled.errors, undefined);
  t.deepEqual(disabled.graphql, [seeded.iface.id]);
  t.deepEqual(disabled.graphql, disabled.rest);

  // a single String variable into a choice filter NetBox declares as a ChoiceFilter
  const mode = await both(
    service,
    'interface_list',
    '/api/dcim/interfaces/',
    'mode=access',
    'query($mode: String) { interface_list(mode: $mode) { id } }',
    { mode: 'access' },
  );
  t.is(mode.errors, undefined);
  t.deepEqual(mode.graphql, [seeded.iface.id]);
  t.deepEqual(mode.graphql, mode.rest);
  const face = await both(
    service,
    'device_list',
    '/api/dcim/devices/',
    'face=front',
    'query($face: String) { device_list(face: $face) { id } }',
    { face: 'front' },
  );
  t.is(face.errors, undefined);
  t.deepEqual(face.graphql, face.rest);

  // several values: NetBox's multi-value filters are [String], numbers included (`id`)
  const several = await both(
    service,
    'site_list',
    '/api/dcim/sites/',
    `id=${seeded.site.id}&id=999`,
    `query($ids: [String]) { site_list(id: $ids) { id } }`,
    { ids: [String(seeded.site.id), '999'] },
  );
  t.is(several.errors, undefined);
  t.deepEqual(several.graphql, [seeded.site.id]);
  t.deepEqual(several.graphql, several.rest);

  // one DateTime (NetBox's DateTimeFilter on image attachments)
  const dated = await service.api('POST', '/graphql/', {
    query: '{ image_attachment_list(created: "2020-01-01T00:00:00Z") { id } }',
  });
  t.deepEqual(dated.body, { data: { image_attachment_list: [] } });
});

test('values of the wrong type are refused as GraphQL errors naming the argument, before anything runs', async (t) => {
  const { service } = t.context;
  const refused = async (query: string, variables?: unknown) => {
    const answer = await service.api('POST', '/graphql/', { query, variables });
    t.is(answer.status, 400, query);
    t.is(answer.body.data, undefined);
    return String(answer.body.errors[0].message);
  };
  t.regex(await refused('{ ip_address_list(family: "4") { id } }'), /Int cannot represent non-integer value: "4"/);
  t.regex(await refused('{ site_list(id: [1]) { id } }'), /String cannot represent a non string value: 1/);
  t.regex(
    await refused('query($f: String) { ip_address_list(family: $f) { id } }', { f: '4' }),
    /Variable "\$f" of type "String" used in position expecting type "Int"/,
  );
  t.regex(
    await refused('query($face: [String]) { device_list(face: $face) { id } }', { face: ['front'] }),
    /Variable "\$face" of type "\[String\]" used in position expecting type "String"/,
  );
  t.regex(await refused('{ image_attachment_list(created: "yesterday") { id } }'), /DateTime cannot represent/);
});

test('REST: a filter NetBox takes one value for takes the last one given, as NetBox’s ChoiceFilter', async (t) => {
  const { service, seeded } = t.context;
  await ok(service.api('PATCH', `/api/dcim/interfaces/${seeded.iface.id}/`, { mode: 'access' }), 200);
  const last = await ok(service.api('GET', '/api/dcim/interfaces/?mode=tagged&mode=access'), 200);
  t.deepEqual(ids(last.results), [seeded.iface.id]);
  const other = await ok(service.api('GET', '/api/dcim/interfaces/?mode=access&mode=tagged'), 200);
  t.deepEqual(ids(other.results), []);
});

import { readFileSync } from 'node:fs';

import test from 'ava';
import { getNamedType, getNullableType, type GraphQLObjectType, isListType, isObjectType, isUnionType } from 'graphql';

import { namesOf } from '../../src/api/graphql/names.js';
import { buildSchema } from '../../src/api/graphql/schema.js';
import type { FieldDefinition } from '../../src/models/fieldDefinition.js';
import type { ModelDefinition } from '../../src/models/modelDefinition.js';
import { registry } from '../../src/models/registry.js';
import { as, grant, userWithToken } from '../support/callers.js';
import { buildRichRegistry } from '../support/richRegistry.js';
import { ADMIN_TOKEN, startService, type TestService } from '../support/startService.js';
import { tinyPng } from '../support/tinyImages.js';

const schema = buildSchema(registry);

/** The selection of every field of a type that the REST complete form has (objects by id). */
function selectionOf(type: GraphQLObjectType, rest: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [name, field] of Object.entries(type.getFields())) {
    if (!(name in rest)) continue;
    const named = getNamedType(field.type);
    if (isObjectType(named)) parts.push(`${name} { id }`);
    else if (isUnionType(named))
      parts.push(
        `${name} { __typename ${named
          .getTypes()
          .map((m) => `... on ${m.name} { id }`)
          .join(' ')} }`,
      );
    else parts.push(name);
  }
  return `{ ${parts.join(' ')} }`;
}

const idOf = (value: any) =>
  value === null || value === undefined
    ? null
    : String(typeof value === 'number' ? value : (value.id ?? value.object_id));

/** An object custom field's value as NetBox's GraphQL shows it: the ids REST nests as objects. */
const storedCustomField = (value: any): unknown =>
  Array.isArray(value)
    ? value.map(storedCustomField)
    : value !== null && typeof value === 'object' && typeof value.id === 'number' && 'url' in value
      ? value.id
      : value;

/** What the GraphQL value of a field is, given the REST complete form's. */
function expected(field: FieldDefinition | undefined, type: GraphQLObjectType, name: string, rest: any): unknown {
  if (field?.type === 'id') return String(rest);
  if (field?.type === 'choice') return rest !== null && typeof rest === 'object' ? rest.value : rest;
  if (field?.type === 'custom_fields')
    return Object.fromEntries(Object.entries(rest).map(([name, value]) => [name, storedCustomField(value)]));
  const gqlType = type.getFields()[name].type;
  const named = getNamedType(gqlType);
  if (!isObjectType(named) && !isUnionType(named)) return rest;
  if (isListType(getNullableType(gqlType)))
    return rest === null ? null : rest.map((item: any) => ({ id: idOf(item.object ?? item) }));
  return rest === null ? null : { id: idOf(rest) };
}

function stripTypename(value: any): any {
  if (Array.isArray(value)) return value.map(stripTypename);
  if (value && typeof value === 'object') {
    const { __typename: _t, ...rest } = value;
    return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, stripTypename(v)]));
  }
  return value;
}

/** A registry holding objects of every model a client can make (src: the rich registry), and an image attachment. */
async function makeEveryModel(service: TestService): Promise<void> {
  const made = await buildRichRegistry(service);
  const form = new FormData();
  form.append('content_type', 'dcim.site');
  form.append('object_id', String(made['dcim.site'].id));
  form.append('image', new Blob([new Uint8Array(tinyPng(2, 2))]), 'front.png');
  const upload = await fetch(`${service.url}/api/extras/image-attachments/`, {
    method: 'POST',
    headers: { Authorization: `Token ${ADMIN_TOKEN}` },
    body: form,
  });
  if (upload.status !== 201) throw new Error(`image upload: ${upload.status} ${await upload.text()}`);
}

/** Models no client can make an object of: NetBox's job results come from jobs this service does not run. */
const NEVER_MADE = ['extras.jobresult'];

test('every model answers its detail and list queries with the values of its REST complete form', async (t) => {
  t.timeout(120_000);
  const service = await startService();
  t.teardown(() => service.close());
  await makeEveryModel(service);
  let compared = 0;
  const empty: string[] = [];
  const mismatches: string[] = [];
  const compare = (definition: ModelDefinition, type: GraphQLObjectType, answer: any, rest: any) => {
    const fields = new Map(definition.fields.map((f) => [f.name, f]));
    for (const [name, value] of Object.entries(stripTypename(answer) ?? {})) {
      const want = expected(fields.get(name), type, name, rest[name]);
      if (JSON.stringify(value) !== JSON.stringify(want))
        mismatches.push(`${definition.key} ${rest.id}.${name}: ${JSON.stringify(value)} != ${JSON.stringify(want)}`);
    }
  };
  for (const definition of registry.all()) {
    // up to five objects of each model, in their REST complete form
    const objects: any[] = (await service.api('GET', `/api/${definition.app}/${definition.path}/?limit=5`)).body
      .results;
    if (objects.length === 0) {
      empty.push(definition.key);
      continue;
    }
    const names = namesOf(definition);
    const type = schema.getType(names.type) as GraphQLObjectType;
    const selection = selectionOf(type, Object.assign({}, ...objects));
    const answer = await service.api('POST', '/graphql/', {
      query: `query($id: Int!, $ids: [String]) { one: ${names.field}(id: $id) ${selection} many: ${names.list}(id: $ids) ${selection} }`,
      variables: { id: objects[0].id, ids: objects.map((o) => String(o.id)) },
    });
    if (answer.status !== 200 || answer.body.errors) {
      mismatches.push(`${definition.key}: ${answer.status} ${JSON.stringify(answer.body.errors)}`);
      continue;
    }
    const { one, many } = answer.body.data;
    compare(definition, type, one, objects[0]);
    t.deepEqual(
      many.map((o: any) => o.id),
      objects.map((o) => String(o.id)),
      `${definition.key}: the list holds the same objects, in the REST order`,
    );
    many.forEach((o: any, i: number) => compare(definition, type, o, objects[i]));
    for (const name of Object.keys(objects[0]))
      if (!(name in type.getFields())) mismatches.push(`${definition.key}.${name} is not in ${names.type}`);
    compared++;
  }
  t.deepEqual(mismatches, []);
  t.deepEqual(empty, NEVER_MADE, 'every other model was compared');
  t.is(compared, registry.all().length - NEVER_MADE.length);

  // the README's example, under the default bounds
  const example = await service.api('POST', '/graphql/', {
    query:
      'query ($site: [String]) { device_list(site: $site, status: "active") { name primary_ip { address } interfaces { name enabled ip_addresses { address vrf { name } } } } }',
    variables: { site: ['dc-1'] },
  });
  t.is(example.status, 200, JSON.stringify(example.body));
  const edge1 = example.body.data.device_list.find((d: any) => d.name === 'edge1');
  t.deepEqual(
    edge1.interfaces.find((i: any) => i.name === 'et-0/0/0'),
    { name: 'et-0/0/0', enabled: true, ip_addresses: [{ address: '192.0.2.1/25', vrf: { name: 'Internet' } }] },
  );

  // references REST nests (a port's link peer, an object custom field) are objects here, each
  // permission-filtered: a caller who may view one end of a cable does not see the other
  const cabled = `{ interface_list(cabled: true, name: "ge-0/0/0") { device { name } link_peers { __typename
    ... on InterfaceType { device { name } } } connected_endpoints { ... on InterfaceType { name } } }
    site_list(slug: "dc-1") { custom_fields } }`;
  const admin = await service.api('POST', '/graphql/', { query: cabled });
  t.deepEqual(admin.body.data.interface_list, [
    {
      device: { name: 'sw1' },
      link_peers: [{ __typename: 'InterfaceType', device: { name: 'sw2' } }],
      connected_endpoints: [{ name: 'ge-0/0/0' }],
    },
    {
      device: { name: 'sw2' },
      link_peers: [{ __typename: 'InterfaceType', device: { name: 'sw1' } }],
      connected_endpoints: [{ name: 'ge-0/0/0' }],
    },
  ]);
  const sw2 = (await service.api('GET', '/api/dcim/devices/?name=sw2')).body.results[0];
  t.deepEqual(admin.body.data.site_list[0].custom_fields, { backup_device: sw2.id, owner: 'noc', ticket: null });
  const viewer = await userWithToken(service, 'one-end');
  const sw1End = (await service.api('GET', '/api/dcim/interfaces/?device=sw1&name=ge-0/0/0')).body.results[0];
  await grant(service, {
    object_types: ['dcim.interface'],
    actions: ['view'],
    users: [viewer.user.id],
    constraints: { id: sw1End.id },
  });
  await grant(service, {
    object_types: ['dcim.device', 'dcim.site'],
    actions: ['view'],
    users: [viewer.user.id],
    constraints: { name__in: ['sw1', 'DC-1'] },
  });
  const restPeers = (await as(service, viewer.key)('GET', '/api/dcim/interfaces/?cabled=true&name=ge-0/0/0')).body;
  t.is(restPeers.results[0].link_peers[0].device.name, 'sw2', 'REST nests the peer as NetBox does');
  const oneEnd = await as(service, viewer.key)('POST', '/graphql/', { query: cabled });
  t.deepEqual(oneEnd.body.data.interface_list, [{ device: { name: 'sw1' }, link_peers: [], connected_endpoints: [] }]);
});

/**
 * NetBox 3.4.10's own schema (netbox-3.4.10-schema.json: graphene-django's print of it,
 * reduced to its queries, their types' fields and the list queries' arguments). Made from
 * the v3.4.10 tree with its requirements.txt in a virtualenv, a configuration.py holding
 * only ALLOWED_HOSTS, DATABASE, REDIS and SECRET_KEY (nothing connects), and
 * `django.setup(); print(str(netbox.graphql.schema.schema))` under
 * DJANGO_SETTINGS_MODULE=netbox.settings.
 */
const NETBOX: {
  queries: Record<string, string>;
  types: Record<string, string[]>;
  lists: Record<string, string>;
} = JSON.parse(readFileSync(new URL('netbox-3.4.10-schema.json', import.meta.url), 'utf8'));

/**
 * NetBox's fields not served, as the README lists them: change records (not a registry
 * model; /api/extras/object-changes/), the model's internal columns (natural-order names,
 * tree numbering, absolute weights and lengths, cached path ends), and a few columns REST
 * does not show either.
 */
const NOT_SERVED =
  /^(\w+\.changelog|\w+\._name|\w+\.(lft|rght|tree_id|level)|\w+\._abs_\w+|\w+\.cabletermination_set|PrefixType\._children|WirelessLinkType\._interface_[ab]_device|SiteType\.asn|UserType\.password|PowerFeedType\.available_power|ModuleType\.local_context_data)$/;

/** NetBox's list arguments the REST filter set does not take either: secrets, and lookups NetBox derives but REST lacks. */
const NOT_FILTERED =
  /^(wireless_lan_list\.auth_psk\w*|wireless_link_list\.(auth_psk\w*|interface_[ab]_id__(n|lte?|gte?))|fhrp_group_list\.auth_key\w*|webhook_list\.secret\w*|\w+_list\.content_types__n?i(c|e|ew|sw)|\w+_list\.content_type_id__(lte?|gte?)|journal_entry_list\.created)$/;

test("NetBox 3.4.10's queries, types, fields and list arguments are all there, but for the differences listed", (t) => {
  const query = schema.getQueryType()!.getFields();
  const missing: string[] = [];
  for (const [name, typeName] of Object.entries(NETBOX.queries)) {
    t.is(String(query[name]?.type), typeName, name);
    t.truthy(query[`${name}_list`], `${name}_list`);
    const fields = (schema.getType(typeName) as GraphQLObjectType).getFields();
    for (const field of NETBOX.types[typeName]) if (!fields[field]) missing.push(`${typeName}.${field}`);
  }
  t.deepEqual(
    missing.filter((m) => !NOT_SERVED.test(m)),
    [],
    'fields of NetBox types missing',
  );
  // list arguments (their types: argumentTypes.e2e.spec.ts)
  for (const [list, args] of Object.entries(NETBOX.lists)) {
    const ours = new Set(query[list].args.map((a) => a.name));
    for (const arg of args.split(' ').filter(Boolean)) {
      const [name] = arg.split(':');
      if (!ours.has(name) && !NOT_FILTERED.test(`${list}.${name}`)) missing.push(`${list}(${name})`);
    }
  }
  t.deepEqual(
    missing.filter((m) => !NOT_SERVED.test(m)),
    [],
    'list arguments missing',
  );
  // the reverse relations under NetBox's related names, one-to-one ones as one object
  const fields = (type: string) => (schema.getType(type) as GraphQLObjectType).getFields();
  t.is(String(fields('DeviceType').parent_bay.type), 'DeviceBayType');
  t.is(String(fields('DeviceType').consoleports.type), '[ConsolePortType!]');
  t.is(String(fields('DeviceTypeType').instances.type), '[DeviceType!]');
  t.is(String(fields('ASNType').sites.type), '[SiteType!]');
  t.is(String(fields('SiteType').contacts.type), '[ContactAssignmentType!]');
  t.is(String(fields('InterfaceType').link_peers.type), '[InterfaceLinkPeersType]');
});

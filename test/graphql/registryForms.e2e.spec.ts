import test from 'ava';
import { getNamedType, getNullableType, type GraphQLObjectType, isListType, isObjectType, isUnionType } from 'graphql';

import { namesOf } from '../../src/api/graphql/names.js';
import { buildSchema } from '../../src/api/graphql/schema.js';
import type { FieldDefinition } from '../../src/models/fieldDefinition.js';
import { registry } from '../../src/models/registry.js';
import { CRUD_SAMPLES } from '../support/crudSamples.js';
import { seedInfrastructure } from '../support/fixtures.js';
import { startService, type TestService } from '../support/startService.js';

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

const idOf = (value: any) => (value === null || value === undefined ? null : String(value.id ?? value.object_id));

/** What the GraphQL value of a field is, given the REST complete form's. */
function expected(field: FieldDefinition | undefined, type: GraphQLObjectType, name: string, rest: any): unknown {
  if (field?.type === 'id') return String(rest);
  if (field?.type === 'choice') return rest !== null && typeof rest === 'object' ? rest.value : rest;
  const gqlType = type.getFields()[name].type;
  const named = getNamedType(gqlType);
  if (!isObjectType(named) && !isUnionType(named)) return rest;
  if (isListType(getNullableType(gqlType))) return (rest ?? []).map((item: any) => ({ id: idOf(item.object ?? item) }));
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

async function makeOneOfEach(service: TestService): Promise<Record<string, { id: number }>> {
  const seeded: Record<string, any> = await seedInfrastructure(service);
  const made: Record<string, any> = {};
  const post = async (at: string, body: unknown) => {
    const response = await service.api('POST', at, body);
    if (response.status !== 201) throw new Error(`${at}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  for (const definition of registry.all()) {
    const sample = CRUD_SAMPLES[definition.key];
    if (!sample) continue;
    if (sample.seeded) made[definition.key] = seeded[sample.seeded];
    if (sample.prepare) Object.assign(made, await sample.prepare(post, made));
    if (!sample.seeded)
      made[definition.key] = await post(`/api/${definition.app}/${definition.path}/`, sample.create!(made));
  }
  return made;
}

test('every model answers its detail and list queries with the values of its REST complete form', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const made = await makeOneOfEach(service);
  let compared = 0;
  const mismatches: string[] = [];
  for (const definition of registry.all()) {
    const path = `/api/${definition.app}/${definition.path}/`;
    const id = made[definition.key]?.id ?? (await service.api('GET', `${path}?limit=1`)).body.results?.[0]?.id;
    if (id === undefined) continue; // nothing of it to compare (e.g. job results)
    const rest = (await service.api('GET', `${path}${id}/`)).body;
    const names = namesOf(definition);
    const type = schema.getType(names.type) as GraphQLObjectType;
    const selection = selectionOf(type, rest);
    const answer = await service.api('POST', '/graphql/', {
      query: `query($id: Int!, $ids: [String]) { one: ${names.field}(id: $id) ${selection} many: ${names.list}(id: $ids) ${selection} }`,
      variables: { id, ids: [String(id)] },
    });
    if (answer.status !== 200 || answer.body.errors) {
      mismatches.push(`${definition.key}: ${answer.status} ${JSON.stringify(answer.body.errors)}`);
      continue;
    }
    const one = stripTypename(answer.body.data?.[`one`]);
    t.deepEqual(stripTypename(answer.body.data?.many), [one], `${definition.key}: the list holds the same object`);
    const fields = new Map(definition.fields.map((f) => [f.name, f]));
    for (const [name, value] of Object.entries(one ?? {})) {
      const want = expected(fields.get(name), type, name, rest[name]);
      if (JSON.stringify(value) !== JSON.stringify(want))
        mismatches.push(`${definition.key}.${name}: ${JSON.stringify(value)} != ${JSON.stringify(want)}`);
    }
    for (const name of Object.keys(rest))
      if (!(name in type.getFields())) mismatches.push(`${definition.key}.${name} is not in ${names.type}`);
    compared++;
  }
  t.deepEqual(mismatches, []);
  t.true(compared >= 85, `${compared} models compared`);

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
});

/** NetBox 3.4.10's query fields (netbox/*\/graphql/schema.py), with their types. */
const NETBOX_QUERIES =
  'circuit circuit_termination circuit_type provider provider_network cable console_port console_port_template console_server_port ' +
  'console_server_port_template device device_bay device_bay_template device_role device_type front_port front_port_template interface ' +
  'interface_template inventory_item inventory_item_role inventory_item_template location manufacturer module module_bay ' +
  'module_bay_template module_type platform power_feed power_outlet power_outlet_template power_panel power_port power_port_template ' +
  'rack rack_reservation rack_role rear_port rear_port_template region site site_group virtual_chassis virtual_device_context ' +
  'config_context custom_field custom_link export_template image_attachment saved_filter journal_entry tag webhook asn aggregate ' +
  'ip_address ip_range l2vpn l2vpn_termination prefix rir role route_target service service_template fhrp_group ' +
  'fhrp_group_assignment vlan vlan_group vrf tenant tenant_group contact contact_role contact_group contact_assignment group user ' +
  'cluster cluster_group cluster_type virtual_machine vm_interface wireless_lan wireless_lan_group wireless_link';

test("NetBox 3.4.10's query fields and type names are all there", (t) => {
  const query = schema.getQueryType()!.getFields();
  for (const name of NETBOX_QUERIES.split(' ')) {
    t.truthy(query[name], name);
    t.truthy(query[`${name}_list`], `${name}_list`);
  }
  t.is(String(query.ip_address.type), 'IPAddressType');
  t.is(String(query.vm_interface.type), 'VMInterfaceType');
  t.is(String(query.wireless_lan_group.type), 'WirelessLANGroupType');
  t.is(String(query.l2vpn_termination.type), 'L2VPNTerminationType');
  const site = schema.getType('SiteType') as GraphQLObjectType;
  for (const reverse of ['devices', 'racks', 'locations', 'prefixes', 'vlans'])
    t.truthy(site.getFields()[reverse], `SiteType.${reverse}`);
  t.truthy((schema.getType('DeviceType') as GraphQLObjectType).getFields().interfaces);
  t.truthy((schema.getType('InterfaceType') as GraphQLObjectType).getFields().ip_addresses);
  t.truthy((schema.getType('VirtualMachineType') as GraphQLObjectType).getFields().interfaces);
  t.truthy((schema.getType('RegionType') as GraphQLObjectType).getFields().children);
  const args = query.site_list.args.map((a) => a.name);
  for (const name of ['name', 'name__ic', 'slug', 'region_id', 'status', 'tag', 'q', 'id__gte'])
    t.true(args.includes(name), `site_list(${name})`);
});

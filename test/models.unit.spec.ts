import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

import test from 'ava';

import { countField } from '../src/models/commonFields.js';
import { AIRFLOW_CHOICES } from '../src/models/dcim/choices.js';
import { allModels } from '../src/models/index.js';
import type { LookupView } from '../src/models/lookupView.js';
import type { ModelDefinition } from '../src/models/modelDefinition.js';
import { nestedGroupModel } from '../src/models/nestedGroupModel.js';
import { organizationalModel } from '../src/models/organizationalModel.js';
import { ModelRegistry, registry } from '../src/models/registry.js';
import type { StoredObject } from '../src/models/storedObject.js';
import { canonicalMac, canonicalWwn } from '../src/models/values/hardwareAddress.js';
import { formatCidr, hostKeys, networkKeys, parseCidr } from '../src/models/values/ipNetworks.js';
import { naturalInterfaceKey, naturalSortKey } from '../src/models/values/naturalSortKey.js';

/** The decision time handed to normalize hooks. */
const DECIDED_AT = '2024-06-01T12:00:00.000000Z';

const REFERENCE = process.env.NETBOX_REFERENCE_DIR
  ? pathToFileURL(`${process.env.NETBOX_REFERENCE_DIR.replace(/\/?$/, '/')}`)
  : new URL('../../shared/reference/netbox-3.4/', import.meta.url);

interface RefModel {
  model: string;
  path: string;
  fields: { name: string }[];
  brief_fields: string[] | null;
}

function loadReference(): Map<string, RefModel> | null {
  const dir = fileURLToPath(REFERENCE);
  if (!existsSync(dir)) return null;
  const models = new Map<string, RefModel>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const data = JSON.parse(readFileSync(new URL(file, REFERENCE), 'utf8')) as { models?: RefModel[] };
    for (const model of data.models ?? []) models.set(model.model, model);
  }
  return models;
}

function viewOf(data: Record<string, StoredObject[]>): LookupView {
  return {
    async get(model, id) {
      return data[model]?.find((o) => o.id === id) ?? null;
    },
    async find() {
      return [];
    },
  };
}

const hooksOf = (key: string) => registry.get(key).hooks ?? {};

test('every definition validates, alone and together', (t) => {
  t.notThrows(() => registry.validate());
  // alone, but for the models its computed fields and display declare they read, and theirs (they must exist)
  const dependencies = (def: ModelDefinition): ModelDefinition[] => {
    const found = new Map<string, ModelDefinition>();
    const visit = (d: ModelDefinition) => {
      for (const m of allModels) {
        const read = d.fields.some((f) => f.dependsOn?.includes(m.key)) || d.displayReads?.includes(m.key);
        if (!found.has(m.key) && m.key !== def.key && read) {
          found.set(m.key, m);
          visit(m);
        }
      }
    };
    visit(def);
    return [...found.values()];
  };
  for (const def of allModels) t.notThrows(() => new ModelRegistry([def, ...dependencies(def)]).validate(), def.key);
  t.true(registry.all().length >= 28);
});

test('validate() reports inconsistent definitions', (t) => {
  const broken: ModelDefinition = {
    key: 'test.thing',
    app: 'test',
    model: 'thing',
    path: 'things',
    verboseName: 'thing',
    verboseNamePlural: 'things',
    fields: [
      { name: 'id', type: 'id', readOnly: true },
      { name: 'name', type: 'string' },
      { name: 'name', type: 'string' },
    ],
    brief: ['id', 'slug'],
    ordering: ['weight', '_hidden', 'id'],
    unique: [{ fields: ['missing'] }],
  };
  const error = t.throws(() => new ModelRegistry([broken]).validate());
  t.regex(error!.message, /duplicate field 'name'/);
  t.regex(error!.message, /brief key 'slug'/);
  t.regex(error!.message, /ordering term 'weight'/);
  t.regex(error!.message, /unique field 'missing'/);
  t.notRegex(error!.message, /_hidden/);
});

/**
 * Fields served beyond NetBox 3.4's, on purpose: a token's use time as last_updated (the
 * contract tracks uses there); the NetBox 2.x names the contract keeps (display_name on
 * VLANs and devices, connection_status on interfaces), which are brief fields too.
 */
const EXTENSIONS: Record<string, string[]> = {
  'users.token': ['last_updated'],
  'ipam.vlan': ['display_name'],
  'dcim.device': ['display_name'],
  'dcim.interface': ['connection_status'],
  'dcim.module': ['replicate_components', 'adopt_components'],
  // the write side's handle on the file a multipart upload stored (a request's own token)
  'extras.imageattachment': ['image_upload'],
};
const BRIEF_EXTENSIONS: Record<string, string[]> = {
  'ipam.vlan': ['display_name'],
  'dcim.device': ['display_name'],
  'dcim.interface': ['connection_status'],
};

/**
 * Models the reference folder does not describe (NetBox 3.4's wireless app), as NetBox
 * 3.4.10's serializers list their fields (a name listed twice renders at its first place).
 */
const BEYOND_REFERENCE: Record<string, RefModel> = {
  'wireless.wirelesslangroup': {
    model: 'wireless.wirelesslangroup',
    path: '/api/wireless/wireless-lan-groups/',
    fields: [
      'id',
      'url',
      'display',
      'name',
      'slug',
      'parent',
      'description',
      'tags',
      'custom_fields',
      'created',
      'last_updated',
      'wirelesslan_count',
      '_depth',
    ].map((name) => ({ name })),
    brief_fields: ['id', 'url', 'display', 'name', 'slug', 'wirelesslan_count', '_depth'],
  },
  'wireless.wirelesslan': {
    model: 'wireless.wirelesslan',
    path: '/api/wireless/wireless-lans/',
    fields: [
      'id',
      'url',
      'display',
      'ssid',
      'description',
      'group',
      'status',
      'vlan',
      'tenant',
      'auth_type',
      'auth_cipher',
      'auth_psk',
      'comments',
      'tags',
      'custom_fields',
      'created',
      'last_updated',
    ].map((name) => ({ name })),
    brief_fields: ['id', 'url', 'display', 'ssid'],
  },
  'wireless.wirelesslink': {
    model: 'wireless.wirelesslink',
    path: '/api/wireless/wireless-links/',
    fields: [
      'id',
      'url',
      'display',
      'interface_a',
      'interface_b',
      'ssid',
      'status',
      'tenant',
      'auth_type',
      'auth_cipher',
      'auth_psk',
      'description',
      'comments',
      'tags',
      'custom_fields',
      'created',
      'last_updated',
    ].map((name) => ({ name })),
    brief_fields: ['id', 'url', 'display', 'ssid'],
  },
};

test('field names and brief fields match the NetBox 3.4 reference', (t) => {
  const reference = loadReference();
  if (!reference) {
    t.log('reference folder absent; skipped');
    t.pass();
    return;
  }
  for (const def of allModels) {
    const ref = reference.get(def.key) ?? BEYOND_REFERENCE[def.key];
    if (!ref) {
      t.fail(`${def.key} is not in the reference`);
      continue;
    }
    const names = def.fields.filter((f) => !f.internal && !EXTENSIONS[def.key]?.includes(f.name)).map((f) => f.name);
    t.deepEqual(
      names,
      ref.fields.map((f) => f.name),
      def.key,
    );
    // a brief form may show a field under another name (briefName): compare what clients read
    const briefKeys = def.brief
      .filter((name) => !BRIEF_EXTENSIONS[def.key]?.includes(name))
      .map((name) => def.fields.find((f) => f.name === name)?.briefName ?? name);
    t.deepEqual(briefKeys, ref.brief_fields ?? [], `${def.key} brief`);
    t.is(`/api/${def.app}/${def.path}/`, ref.path, `${def.key} path`);
  }
});

test('registry lookups', (t) => {
  t.is(registry.byPath('users', 'users')?.key, 'auth.user');
  t.is(registry.byPath('dcim', 'device-types')?.key, 'dcim.devicetype');
  t.is(registry.byPath('dcim', 'nothing'), undefined);
  t.is(registry.tryGet('dcim.nothing'), undefined);
  t.throws(() => registry.get('dcim.nothing'));
  t.deepEqual(
    registry
      .apps()
      .get('users')
      ?.map((d) => d.key),
    ['auth.group', 'auth.user', 'users.token', 'users.objectpermission'],
  );
  const refs = registry.referencesTo('dcim.site').map((r) => `${r.model.key}.${r.field.name}`);
  t.true(refs.includes('dcim.device.site'));
  t.true(refs.includes('dcim.rack.site'));
  t.true(refs.includes('ipam.vlan.site'));
  const ifaceRefs = registry.referencesTo('dcim.interface').map((r) => `${r.model.key}.${r.field.name}`);
  t.true(ifaceRefs.includes('ipam.ipaddress.assigned_object'));
  t.true(ifaceRefs.includes('dcim.interface.parent'));
  const tagRefs = registry.referencesTo('extras.tag');
  t.true(tagRefs.some((r) => r.model.key === 'dcim.site' && r.field.type === 'tags'));
});

test('naturalSortKey orders digits numerically', (t) => {
  const key = (s: string) => naturalSortKey(s)!;
  t.true(key('eth2') < key('eth10'));
  t.true(key('sw9') < key('sw10'));
  t.is(key('Rack 7'), 'Rack 00000007');
  t.is(naturalSortKey(null), null);
  t.is(key('x'.repeat(150)).length, 100);
  const iface = (s: string) => naturalInterfaceKey(s)!;
  t.true(iface('GigabitEthernet1/0/2') < iface('GigabitEthernet1/0/10'));
  t.true(iface('eth2') < iface('eth10'));
  t.true(iface('xe-0/0/1.100') > iface('xe-0/0/1'));
});

test('network keys sort bytewise like addresses', (t) => {
  const a = (s: string) => hostKeys(s)!._address;
  t.true(a('10.0.0.2') < a('10.0.0.10'));
  t.true(a('10.0.0.10') < a('::1'));
  t.true(a('9.255.255.255/8') < a('10.0.0.0/8'));
  const n8 = networkKeys('10.0.0.0/8')!;
  const n16 = networkKeys('10.0.0.0/16')!;
  t.is(n8._network, n16._network);
  t.true(n8._prefixlen < n16._prefixlen);
  t.true(n8._last > n16._last);
  t.is(n8._family, 4);
  t.is(networkKeys('2001:db8::/32')!._family, 6);
  t.true(networkKeys('255.0.0.0/8')!._network < networkKeys('::/0')!._network);
  t.is(networkKeys('nonsense'), null);
});

test('CIDR parsing and canonical text', (t) => {
  const canon = (s: string) => formatCidr(parseCidr(s)!);
  t.is(canon('2001:DB8:0:0:0:0:0:1/64'), '2001:db8::1/64');
  t.is(canon('2001:db8:0:1:0:0:1:1'), '2001:db8:0:1::1:1/128');
  t.is(canon('1:0:2:3:4:5:6:7/128'), '1:0:2:3:4:5:6:7/128');
  t.is(canon('::'), '::/128');
  t.is(canon('::ffff:10.0.0.1/128'), '::ffff:10.0.0.1/128');
  t.is(canon('10.0.0.0/255.255.0.0'), '10.0.0.0/16');
  t.is(parseCidr('10.0.0.0/33'), null);
  t.is(parseCidr('010.0.0.1'), null);
  t.is(parseCidr('fe80::1%eth0'), null);
  t.is(canon('255.255.255.255/255.255.255.255'), '255.255.255.255/32');
  t.is(canon('0.0.0.0'), '0.0.0.0/32');
  t.is(parseCidr('172.16.254.3')!.value, 0xac10fe03n);
});

test("an address's host keys are the same whether remembered from its normalisation or parsed afresh", (t) => {
  const normalize = hooksOf('ipam.ipaddress').normalize!;
  const obj: Record<string, unknown> = { id: 1, address: '192.0.2.77/24' };
  t.is(normalize(obj as never, DECIDED_AT), undefined);
  const remembered = hostKeys(obj.address)!;
  t.deepEqual({ ...remembered }, { _family: 4, _address: `4${'c000024d'.padStart(32, '0')}`, _prefixlen: 24 });
  t.true(Object.isFrozen(remembered), 'shared keys cannot be changed by one holder');
  t.is(hostKeys('192.0.2.77/24'), remembered);
  t.deepEqual(
    { ...hostKeys('2001:db8::77/64')! },
    { _family: 6, _address: `6${'20010db8' + '0'.repeat(22)}77`, _prefixlen: 64 },
  );
  t.is(hostKeys('bogus'), null);
});

test('prefix normalize rejects host bits and canonicalises', (t) => {
  const normalize = hooksOf('ipam.prefix').normalize!;
  t.deepEqual(normalize({ id: 1, prefix: '10.1.1.1/24' }, DECIDED_AT), {
    prefix: ['10.1.1.1/24 is not a valid prefix. Did you mean 10.1.1.0/24?'],
  });
  t.deepEqual(normalize({ id: 1, prefix: 'bogus' }, DECIDED_AT), { prefix: ['Invalid IP address format: bogus'] });
  t.deepEqual(normalize({ id: 1, prefix: '0.0.0.0/0' }, DECIDED_AT), {
    prefix: ['Cannot create prefix with /0 mask.'],
  });
  const obj: StoredObject = { id: 1, prefix: '2001:DB8::/32' };
  t.falsy(normalize(obj, DECIDED_AT));
  t.is(obj.prefix, '2001:db8::/32');
  t.is(obj.family, 6);
  const host: StoredObject = { id: 2, prefix: '10.0.0.1' };
  t.falsy(normalize(host, DECIDED_AT));
  t.is(host.prefix, '10.0.0.1/32');
  t.deepEqual(hooksOf('ipam.aggregate').normalize!({ id: 3, prefix: '::/0' }, DECIDED_AT), {
    prefix: ['Cannot create aggregate with /0 mask.'],
  });
});

test('ipaddress normalize adds the mask and family', (t) => {
  const hooks = hooksOf('ipam.ipaddress');
  const obj: StoredObject = { id: 1, address: '10.0.0.1', dns_name: 'Host.Example.COM' };
  t.falsy(hooks.normalize!(obj, DECIDED_AT));
  t.is(obj.address, '10.0.0.1/32');
  t.is(obj.family, 4);
  t.is(obj.dns_name, 'host.example.com');
  const withHostBits: StoredObject = { id: 2, address: '10.0.0.1/24' };
  t.falsy(hooks.normalize!(withHostBits, DECIDED_AT));
  t.is(withHostBits.address, '10.0.0.1/24');
  t.deepEqual(hooks.derive!(withHostBits), hostKeys('10.0.0.1/24'));
});

test('ipaddress validate', async (t) => {
  const validate = hooksOf('ipam.ipaddress').validate!;
  const view = viewOf({});
  t.deepEqual(await validate({ id: 1, address: '10.0.0.1/32', family: 4, status: 'slaac' }, view, null), {
    status: ['Only IPv6 addresses can be assigned SLAAC status'],
  });
  t.deepEqual(await validate({ id: 1, family: 4, assigned_object_type: 'dcim.interface' }, view, null), {
    assigned_object_id: ['This field cannot be null.'],
  });
  t.truthy(await validate({ id: 1, family: 4, dns_name: 'bad name' }, view, null));
  t.falsy(await validate({ id: 1, family: 4, dns_name: '*.example.com.' }, view, null));
});

test('display hooks', async (t) => {
  const view = viewOf({
    'dcim.manufacturer': [{ id: 1, name: 'Juniper' }],
    'dcim.devicetype': [{ id: 2, model: 'MX480', manufacturer: 1 }],
  });
  const display = (key: string, obj: StoredObject) => hooksOf(key).display!(obj, view);
  t.is(await display('ipam.vrf', { id: 1, name: 'Blue', rd: '65000:1' }), 'Blue (65000:1)');
  t.is(await display('ipam.vrf', { id: 1, name: 'Blue', rd: null }), 'Blue');
  t.is(await display('ipam.vlan', { id: 1, name: 'Users', vid: 100 }), 'Users (100)');
  t.is(await display('dcim.rack', { id: 1, name: 'R1', facility_id: 'F-1' }), 'R1 (F-1)');
  t.is(await display('dcim.interface', { id: 1, name: 'eth0', label: 'Uplink' }), 'eth0 (Uplink)');
  t.is(await display('dcim.interface', { id: 1, name: 'eth0', label: '' }), 'eth0');
  t.is(await display('dcim.device', { id: 7, name: 'core1', asset_tag: 'A1' }), 'core1 (A1)');
  t.is(await display('dcim.device', { id: 7, name: null, device_type: 2, asset_tag: null }), 'Juniper MX480 (7)');
  t.is(await display('auth.user', { id: 1, username: 'jo', first_name: 'Jo', last_name: '' }), 'jo (Jo)');
  t.is(await display('auth.user', { id: 1, username: 'jo', first_name: '', last_name: '' }), 'jo');
  t.is(await display('users.token', { id: 1, key_last6: 'abcdef' }), `${'*'.repeat(34)}abcdef`);
  t.is(await display('ipam.prefix', { id: 1, prefix: '10.0.0.0/8' }), '10.0.0.0/8');
});

test('tree depth and parent rule', async (t) => {
  const regions = [
    { id: 1, name: 'Earth', parent: null },
    { id: 2, name: 'Europe', parent: 1 },
    { id: 3, name: 'France', parent: 2 },
  ];
  const view = viewOf({ 'dcim.region': regions });
  const hooks = hooksOf('dcim.region');
  t.is(await hooks.compute!._depth(regions[2], view), 2);
  t.is(await hooks.compute!._depth(regions[0], view), 0);
  t.deepEqual(await hooks.validate!({ ...regions[0], parent: 3 }, view, regions[0]), {
    parent: ['Cannot assign self or child region as parent.'],
  });
  t.falsy(await hooks.validate!(regions[2], view, null));
});

test('device and vlan rules', async (t) => {
  const view = viewOf({
    'dcim.site': [
      { id: 1, name: 'S1' },
      { id: 2, name: 'S2' },
    ],
    'dcim.rack': [{ id: 5, name: 'R1', site: 2, location: null, facility_id: null }],
    'ipam.vlangroup': [{ id: 9, name: 'G', min_vid: 100, max_vid: 199, scope_type: null, scope_id: null }],
  });
  const device = hooksOf('dcim.device').validate!;
  t.deepEqual(await device({ id: 1, site: 1, rack: 5 }, view, null), {
    rack: ['Rack R1 does not belong to site S1.'],
  });
  t.deepEqual(await device({ id: 1, site: 1, rack: null, position: 3 }, view, null), {
    position: ['Cannot select a rack position without assigning a rack.'],
  });
  t.deepEqual(await device({ id: 1, site: 2, rack: 5, position: 3, face: '' }, view, null), {
    face: ['Must specify rack face when defining rack position.'],
  });
  t.falsy(await device({ id: 1, site: 2, rack: 5, position: 3, face: 'front' }, view, null));
  const vlan = hooksOf('ipam.vlan').validate!;
  t.deepEqual(await vlan({ id: 1, vid: 5, group: 9, site: null }, view, null), {
    vid: ['VID must be between 100 and 199 for VLANs in group G'],
  });
  t.deepEqual(await vlan({ id: 1, vid: 150, group: 9, site: 1 }, view, null), {
    group: ['VLAN is assigned to group G (scope: None); cannot also assign to site S1.'],
  });
  const group = hooksOf('ipam.vlangroup').validate!;
  t.deepEqual(await group({ id: 1, min_vid: 10, max_vid: 5 }, view, null), {
    max_vid: ['Maximum child VID must be greater than or equal to minimum child VID'],
  });
});

test('interface rules', async (t) => {
  const validate = hooksOf('dcim.interface').validate!;
  const view = viewOf({});
  const iface: StoredObject = { id: 3, device: 1, name: 'eth0', type: '1000base-t' };
  t.falsy(await validate(iface, view, null));
  t.deepEqual(await validate({ ...iface, device: 2 }, view, iface), {
    device: ['Components cannot be moved to a different device.'],
  });
  t.deepEqual(await validate({ ...iface, parent: 3 }, view, null), {
    parent: ['An interface cannot be its own parent.'],
  });
  t.deepEqual(await validate({ ...iface, type: 'lag', mark_connected: true }, view, null), {
    mark_connected: ['Link Aggregation Group (LAG) interfaces cannot be marked as connected.'],
  });
});

test('interface hooks', (t) => {
  const hooks = hooksOf('dcim.interface');
  const obj: StoredObject = { id: 1, device: 4, name: 'eth0', mac_address: 'aabb.ccdd.eeff', wwn: null };
  t.falsy(hooks.normalize!(obj, DECIDED_AT));
  t.is(obj.mac_address, 'AA:BB:CC:DD:EE:FF');
  t.deepEqual(hooks.normalize!({ id: 1, mac_address: 'zz' }, DECIDED_AT), {
    mac_address: ['Invalid MAC address format: zz'],
  });
  t.deepEqual(hooks.relatedObject!(obj), { type: 'dcim.device', id: 4 });
  t.is(canonicalMac('a-b-c-d-e-f'), '0A:0B:0C:0D:0E:0F');
  t.is(canonicalWwn('500143802426baf4'), '50:01:43:80:24:26:BA:F4');
  t.is(canonicalMac('500143802426baf4'), null);
});

/* ------------------------------------------------------ facts said once */

const thing = (extra: Partial<ModelDefinition> = {}): ModelDefinition => ({
  key: 'test.thing',
  app: 'test',
  model: 'thing',
  path: 'things',
  verboseName: 'thing',
  verboseNamePlural: 'things',
  fields: [
    { name: 'id', type: 'id', readOnly: true },
    { name: 'display', type: 'display', readOnly: true },
    { name: 'name', type: 'string', required: true },
    { name: 'serial', type: 'string', unique: true, nullable: true },
    { name: 'family', type: 'choice', readOnly: true, choices: [{ value: 4, label: 'IPv4' }] },
    { name: 'data', type: 'json', nullable: true },
    { name: 'members', type: 'm2m', target: 'auth.user' },
    { name: 'secret', type: 'string', writeOnly: true },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
  ],
  brief: ['id', 'display', 'name'],
  ordering: ['name', 'id'],
  ...extra,
});

test('a field marked unique is an enforced constraint, not only an index', (t) => {
  const def = new ModelRegistry([thing({ unique: [{ fields: ['name', 'serial'] }] })]).get('test.thing');
  t.deepEqual(def.unique, [{ fields: ['serial'] }, { fields: ['name', 'serial'] }]);
  // every registered field flag has its constraint (the write side checks def.unique only)
  for (const model of registry.all()) {
    for (const field of model.fields.filter((f) => f.unique)) {
      t.true(
        model.unique!.some((c) => c.fields.length === 1 && c.fields[0] === field.name),
        `${model.key}.${field.name}`,
      );
    }
  }
});

test('a single-field constraint on the definition is refused: it is said by the field', (t) => {
  const error = t.throws(() => new ModelRegistry([thing({ unique: [{ fields: ['serial'] }] })]).validate());
  t.regex(error!.message, /test\.thing: unique constraint on 'serial' alone: mark the field unique instead/);
  t.notThrows(() => new ModelRegistry([thing({ unique: [{ fields: ['serial'], message: 'Taken.' }] })]).validate());
});

test('ordering fields default to the stored, rendered values; a declared list wins', (t) => {
  t.deepEqual(new ModelRegistry([thing()]).get('test.thing').orderingFields, ['id', 'name', 'serial', 'created']);
  t.deepEqual(new ModelRegistry([thing({ orderingFields: ['id'] })]).get('test.thing').orderingFields, ['id']);
  t.deepEqual(
    registry.get('ipam.prefix').orderingFields!.slice(0, 3),
    ['id', 'prefix', 'site'],
    'a derived family is not orderable',
  );
  const declared = allModels.filter((d) => d.orderingFields).map((d) => d.key);
  t.deepEqual(
    declared,
    ['users.token', 'users.objectpermission', 'ipam.iprange', 'extras.jobresult'],
    'only the exceptions declare their own',
  );
});

test('a model with a name shows its name unless it has a display hook', async (t) => {
  const view = viewOf({});
  const named = new ModelRegistry([thing()]).get('test.thing');
  t.is(await named.hooks!.display!({ id: 1, name: 'Alpha' }, view), 'Alpha');
  const own = new ModelRegistry([thing({ hooks: { display: () => 'own' } })]).get('test.thing');
  t.is(await own.hooks!.display!({ id: 1, name: 'Alpha' }, view), 'own');
  const nameless = thing({ fields: thing().fields.filter((f) => f.name !== 'name'), brief: ['id'], ordering: ['id'] });
  t.is(new ModelRegistry([nameless]).get('test.thing').hooks?.display, undefined);
  t.is(await hooksOf('dcim.region').display!({ id: 1, name: 'Europe' }, view), 'Europe');
});

test('which models are change-logged, exemptable and access control is said by their definitions', (t) => {
  const keys = (flag: (d: ModelDefinition) => boolean) =>
    registry
      .all()
      .filter(flag)
      .map((d) => d.key)
      .sort();
  t.deepEqual(
    keys((d) => d.changeLogged === false),
    ['auth.group', 'auth.user', 'dcim.cabletermination', 'extras.jobresult', 'users.objectpermission', 'users.token'],
  );
  t.deepEqual(
    keys((d) => d.exemptable === false),
    ['auth.group', 'auth.user', 'users.objectpermission'],
  );
  t.deepEqual(
    keys((d) => d.accessControl === true),
    ['auth.group', 'auth.user', 'users.objectpermission', 'users.token'],
  );
});

test('choices several models use are one declaration per app', (t) => {
  const choicesOf = (key: string, field: string) => registry.get(key).fields.find((f) => f.name === field)!.choices;
  t.is(choicesOf('dcim.device', 'airflow'), AIRFLOW_CHOICES);
  t.is(choicesOf('dcim.devicetype', 'airflow'), AIRFLOW_CHOICES);
  t.is(choicesOf('dcim.site', 'status'), choicesOf('dcim.location', 'status'));
  t.is(choicesOf('dcim.rack', 'weight_unit'), choicesOf('dcim.devicetype', 'weight_unit'));
  t.is(choicesOf('ipam.prefix', 'family'), choicesOf('ipam.ipaddress', 'family'));
});

test('an organizational model is its key, path and verbose name', async (t) => {
  const declared = organizationalModel({
    key: 'test.kind',
    path: 'kinds',
    verboseName: 'kind',
    fields: [{ name: 'weight', type: 'integer', default: 100 }],
    counts: [countField('thing_count', 'test.thing', 'kind')],
  });
  const registryOfOne = new ModelRegistry([declared]);
  t.notThrows(() => registryOfOne.validate());
  const kind = registryOfOne.get('test.kind');
  t.is(kind.app, 'test');
  t.is(kind.model, 'kind');
  t.is(kind.verboseNamePlural, 'kinds');
  t.deepEqual(
    kind.fields.map((f) => f.name),
    [
      'id',
      'url',
      'display',
      'name',
      'slug',
      'weight',
      'description',
      'tags',
      'custom_fields',
      'created',
      'last_updated',
      'thing_count',
    ],
  );
  t.deepEqual(kind.unique, [{ fields: ['name'] }, { fields: ['slug'] }]);
  t.deepEqual(kind.brief, ['id', 'url', 'display', 'name', 'slug']);
  t.deepEqual(kind.ordering, ['name', 'id']);
  t.deepEqual(kind.search, ['name', 'slug']);
  t.deepEqual(kind.orderingFields, ['id', 'name', 'slug', 'weight', 'description', 'created', 'last_updated']);
  t.is(await kind.hooks!.display!({ id: 1, name: 'Blue' }, viewOf({})), 'Blue');
  const contactRole = registry.get('tenancy.contactrole');
  t.is(contactRole.path, 'contact-roles');
  t.deepEqual(
    contactRole.fields.map((f) => f.name),
    ['id', 'url', 'display', 'name', 'slug', 'description', 'tags', 'custom_fields', 'created', 'last_updated'],
  );
});

test('a nested group is its key, path and verbose name; names unique globally or among siblings', async (t) => {
  const counts = [countField('thing_count', 'test.thing', 'group')];
  const global = new ModelRegistry([
    nestedGroupModel({ key: 'test.group', path: 'groups', verboseName: 'group', counts }),
  ]).get('test.group');
  t.deepEqual(global.fields.map((f) => f.name).slice(3), [
    'name',
    'slug',
    'parent',
    'description',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
    'thing_count',
    '_depth',
  ]);
  t.deepEqual(global.brief, ['id', 'url', 'display', 'name', 'slug', 'thing_count', '_depth']);
  t.deepEqual(global.unique, [{ fields: ['name'] }, { fields: ['slug'] }]);
  const siblings = nestedGroupModel({
    key: 'test.group',
    path: 'groups',
    verboseName: 'group',
    uniqueAmongSiblings: true,
    counts,
  });
  t.deepEqual(
    new ModelRegistry([siblings]).get('test.group').unique!.map((c) => c.fields.join()),
    ['parent,name', 'name', 'parent,slug', 'slug'],
  );
  const nodes = [
    { id: 1, name: 'Top', parent: null },
    { id: 2, name: 'Child', parent: 1 },
  ];
  t.is(await siblings.hooks!.compute!._depth(nodes[1], viewOf({ 'test.group': nodes })), 1);
  t.deepEqual(await siblings.hooks!.validate!({ ...nodes[0], parent: 2 }, viewOf({ 'test.group': nodes }), nodes[0]), {
    parent: ['Cannot assign self or child group as parent.'],
  });
});

test("validate() checks the fields a detail action's allocator names against the created model", (t) => {
  const prefix = registry.get('ipam.prefix');
  const [action] = prefix.detailActions!;
  const broken: ModelDefinition = {
    ...prefix,
    detailActions: [
      {
        ...action,
        path: 'Bad Path',
        allocator: {
          ...action.allocator,
          shape: {
            ...action.allocator.shape,
            assigned: ['prefix', 'nowhere', 'id'],
            extra: [{ name: 'status', type: 'string' }],
          },
        },
      },
    ],
  };
  const error = t.throws(() => new ModelRegistry([broken, registry.get('ipam.ipaddress')]).validate());
  t.regex(error!.message, /detail action 'Bad Path': malformed path/);
  t.regex(error!.message, /'nowhere' is not a writable field of ipam\.prefix/);
  t.regex(error!.message, /'id' is not a writable field/);
  t.regex(error!.message, /extra 'status' is a field of ipam\.prefix/);
  t.notThrows(() => new ModelRegistry(allModels).validate());
});

import { registry } from '../../src/models/registry.js';
import { CRUD_SAMPLES } from './crudSamples.js';
import { seedInfrastructure } from './fixtures.js';
import type { TestService } from './startService.js';

/** Image attachments are made by a multipart upload only. */
const CREATED_BY_UPLOAD = new Set(['extras.imageattachment']);

/**
 * A registry holding an object of every model a client can write (the CRUD samples),
 * and what makes a migration hard: components instantiated from templates, a primary
 * IP, a virtual chassis with its master, cables and their paths, custom fields (one
 * naming objects), tags, a child region created before its parent, users, groups and
 * permissions with constraints, history with updates and deletes (every model's object
 * updated; cables deleted and re-made, a device with its instantiated components, a tag, a
 * custom field, a user, a tenant deleted), and `bulk` more interfaces and addresses (made,
 * updated and a few deleted in bulk requests) for volume.
 */
export async function buildRichRegistry(service: TestService, bulk = 0): Promise<Record<string, any>> {
  const post = async (path: string, body: unknown) => {
    const response = await service.api('POST', path, body);
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const patch = async (path: string, body: unknown) => {
    const response = await service.api('PATCH', path, body);
    if (response.status !== 200) throw new Error(`PATCH ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const remove = async (path: string) => {
    const response = await service.api('DELETE', path);
    if (response.status !== 204) throw new Error(`DELETE ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  };
  const seeded: Record<string, any> = await seedInfrastructure(service);
  const made: Record<string, any> = {};
  for (const [key, sample] of Object.entries(CRUD_SAMPLES)) if (sample.seeded) made[key] = seeded[sample.seeded];
  for (const model of registry.all()) {
    if (model.readOnly || CREATED_BY_UPLOAD.has(model.key) || made[model.key]) continue;
    const sample = CRUD_SAMPLES[model.key];
    if (!sample?.create) continue;
    if (sample.prepare) Object.assign(made, await sample.prepare(post, made));
    made[model.key] = await post(`/api/${model.app}/${model.path}/`, sample.create(made));
    await patch(`/api/${model.app}/${model.path}/${made[model.key].id}/`, sample.patch);
  }
  // A device type with templates: its devices get their components from them.
  const manufacturer = seeded.manufacturer.id;
  const switchType = await post('/api/dcim/device-types/', { manufacturer, model: 'EX4300', slug: 'ex4300' });
  await post('/api/dcim/interface-templates/', [
    { device_type: switchType.id, name: 'ge-0/0/0', type: '1000base-t' },
    { device_type: switchType.id, name: 'ge-0/0/1', type: '1000base-t' },
  ]);
  const members: Array<{ id: number }> = [];
  for (const name of ['sw1', 'sw2']) {
    members.push(
      await post('/api/dcim/devices/', {
        name,
        device_type: switchType.id,
        device_role: seeded.deviceRole.id,
        site: seeded.site.id,
      }),
    );
  }
  // A virtual chassis whose master is a member.
  const chassis = await post('/api/dcim/virtual-chassis/', { name: 'stack1' });
  await patch(`/api/dcim/devices/${members[0].id}/`, { virtual_chassis: chassis.id, vc_position: 1 });
  await patch(`/api/dcim/devices/${members[1].id}/`, { virtual_chassis: chassis.id, vc_position: 2 });
  await patch(`/api/dcim/virtual-chassis/${chassis.id}/`, { master: members[0].id });
  // A cable between the switches' instantiated interfaces, and a primary IP.
  const swIfaces = (
    await service.api(
      'GET',
      `/api/dcim/interfaces/?device_id=${members[0].id}&device_id=${members[1].id}&name=ge-0/0/0`,
    )
  ).body.results;
  await post('/api/dcim/cables/', {
    a_terminations: [{ object_type: 'dcim.interface', object_id: swIfaces[0].id }],
    b_terminations: [{ object_type: 'dcim.interface', object_id: swIfaces[1].id }],
    label: 'stack-link',
  });
  const mgmt = await post('/api/ipam/ip-addresses/', {
    address: '198.51.100.1/24',
    assigned_object_type: 'dcim.interface',
    assigned_object_id: swIfaces[0].id,
  });
  await patch(`/api/dcim/devices/${members[0].id}/`, { primary_ip4: mgmt.id });
  // A child region whose parent is created after it.
  const child = await post('/api/dcim/regions/', { name: 'Frankfurt', slug: 'frankfurt' });
  const parent = await post('/api/dcim/regions/', { name: 'Germany', slug: 'germany', parent: seeded.region.id });
  await patch(`/api/dcim/regions/${child.id}/`, { parent: parent.id });
  // Custom fields, one naming an object, and tags on objects.
  await post('/api/extras/custom-fields/', {
    name: 'owner',
    type: 'text',
    content_types: ['dcim.device', 'dcim.site'],
  });
  await post('/api/extras/custom-fields/', {
    name: 'backup_device',
    type: 'object',
    object_type: 'dcim.device',
    content_types: ['dcim.site'],
  });
  await patch(`/api/dcim/sites/${seeded.site.id}/`, {
    custom_fields: { owner: 'noc', backup_device: members[1].id },
    tags: [seeded.tag.id],
  });
  await patch(`/api/dcim/devices/${members[0].id}/`, {
    custom_fields: { owner: 'lan team' },
    tags: [{ slug: 'production' }],
  });
  // Users, groups and permissions with constraints.
  const group = await post('/api/users/groups/', { name: 'noc' });
  const operator = await post('/api/users/users/', {
    username: 'operator',
    password: 'operator-password',
    groups: [group.id],
  });
  await post('/api/users/permissions/', {
    name: 'planned sites',
    object_types: ['dcim.site'],
    actions: ['view', 'change'],
    constraints: { status: 'planned' },
    groups: [group.id],
  });
  await post('/api/users/permissions/', {
    name: 'own devices',
    object_types: ['dcim.device'],
    actions: ['view'],
    users: [operator.id],
  });
  // History: objects changed and deleted, so ids have gaps.
  const doomed = await post('/api/tenancy/tenants/', { name: 'Gone Ltd', slug: 'gone' });
  await patch(`/api/tenancy/tenants/${doomed.id}/`, { description: 'about to go' });
  await remove(`/api/tenancy/tenants/${doomed.id}/`);
  await patch(`/api/dcim/sites/${seeded.site.id}/`, { description: 'main data centre' });
  // A cable deleted and one made after it (cable termination ids with a gap), and a cable re-terminated.
  const spare = (
    await service.api(
      'GET',
      `/api/dcim/interfaces/?device_id=${members[0].id}&device_id=${members[1].id}&name=ge-0/0/1`,
    )
  ).body.results;
  const cableEnds = (a: { id: number }, b: { id: number }) => ({
    a_terminations: [{ object_type: 'dcim.interface', object_id: a.id }],
    b_terminations: [{ object_type: 'dcim.interface', object_id: b.id }],
  });
  const unplugged = await post('/api/dcim/cables/', { ...cableEnds(spare[0], spare[1]), label: 'unplugged' });
  await remove(`/api/dcim/cables/${unplugged.id}/`);
  const patchCable = await post('/api/dcim/cables/', { ...cableEnds(spare[0], spare[1]), label: 'patch' });
  const patchPanel = await post('/api/dcim/interfaces/', {
    device: members[1].id,
    name: 'ge-0/0/9',
    type: '1000base-t',
  });
  await patch(`/api/dcim/cables/${patchCable.id}/`, {
    b_terminations: [{ object_type: 'dcim.interface', object_id: patchPanel.id }],
    color: 'ff0000',
  });
  // A device deleted with the components its type gave it, a tag, a custom field and a user deleted.
  const retired = await post('/api/dcim/devices/', {
    name: 'sw-retired',
    device_type: switchType.id,
    device_role: seeded.deviceRole.id,
    site: seeded.site.id,
  });
  await remove(`/api/dcim/devices/${retired.id}/`);
  const oldTag = await post('/api/extras/tags/', { name: 'legacy', slug: 'legacy' });
  await patch(`/api/dcim/devices/${members[1].id}/`, { tags: [oldTag.id] });
  await remove(`/api/extras/tags/${oldTag.id}/`);
  const oldField = await post('/api/extras/custom-fields/', {
    name: 'rack_u',
    type: 'integer',
    content_types: ['dcim.site'],
  });
  await patch(`/api/dcim/sites/${seeded.site.id}/`, { custom_fields: { rack_u: 42 } });
  await remove(`/api/extras/custom-fields/${oldField.id}/`);
  const leaver = await post('/api/users/users/', { username: 'leaver', password: 'leaver-password' });
  await remove(`/api/users/users/${leaver.id}/`);
  // Volume: interfaces and addresses in bulk.
  for (let i = 0; i < bulk; i += 250) {
    const n = Math.min(250, bulk - i);
    const ifaces = await post(
      '/api/dcim/interfaces/',
      Array.from({ length: n }, (_, k) => ({ device: members[1].id, name: `xe-0/1/${i + k}`, type: '10gbase-x-sfpp' })),
    );
    await post(
      '/api/ipam/ip-addresses/',
      ifaces.map((iface: { id: number }, k: number) => ({
        address: `10.${Math.floor((i + k) / 250)}.${(i + k) % 250}.1/31`,
        assigned_object_type: 'dcim.interface',
        assigned_object_id: iface.id,
      })),
    );
    // Bulk updates and deletes among them: every tenth renamed, the last two of each batch deleted.
    const renamed = await service.api(
      'PATCH',
      '/api/dcim/interfaces/',
      ifaces
        .filter((_: unknown, k: number) => k % 10 === 0)
        .map((f: { id: number }) => ({ id: f.id, description: 'uplink' })),
    );
    if (renamed.status !== 200) throw new Error(`bulk PATCH: ${renamed.status} ${JSON.stringify(renamed.body)}`);
    if (n > 2) {
      const gone = await service.api(
        'DELETE',
        '/api/dcim/interfaces/',
        ifaces.slice(-2).map((f: { id: number }) => ({ id: f.id })),
      );
      if (gone.status !== 204) throw new Error(`bulk DELETE: ${gone.status} ${JSON.stringify(gone.body)}`);
    }
  }
  return { ...made, members, chassis, mgmt };
}

import test from 'ava';

import { ContentTypes } from '../../src/models/contentTypes.js';
import { registry } from '../../src/models/registry.js';
import { startService, type TestService } from '../support/startService.js';

async function post(service: TestService, path: string, body: unknown): Promise<any> {
  const response = await service.api('POST', path, body);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function names(service: TestService, path: string, query: string): Promise<string[]> {
  const response = await service.api('GET', `${path}?${query}`);
  if (response.status !== 200) throw new Error(`${path}?${query}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.results.map((o: any) => o.name).sort();
}

function assign(
  service: TestService,
  contentType: string,
  objectId: number,
  contact: number,
  role: number,
  extra: Record<string, unknown> = {},
) {
  return post(service, '/api/tenancy/contact-assignments/', {
    content_type: contentType,
    object_id: objectId,
    contact,
    role,
    ...extra,
  });
}

/**
 * Contact groups Staff > NOC; contacts Alice (NOC), Bob (Staff), Carol (no group); roles
 * Admin and Billing. Sites DC-1 (Alice as Admin), DC-2 (Bob as Billing), DC-3 (none);
 * tenants Acme (Carol as Admin), Initech (none); VMs web1 (Alice as Billing), web2 (none).
 */
async function estate(service: TestService) {
  const staff = await post(service, '/api/tenancy/contact-groups/', { name: 'Staff', slug: 'staff' });
  const noc = await post(service, '/api/tenancy/contact-groups/', { name: 'NOC', slug: 'noc', parent: staff.id });
  const alice = await post(service, '/api/tenancy/contacts/', {
    name: 'Alice',
    group: noc.id,
    email: 'alice@example.com',
  });
  const bob = await post(service, '/api/tenancy/contacts/', { name: 'Bob', group: staff.id });
  const carol = await post(service, '/api/tenancy/contacts/', { name: 'Carol' });
  const admin = await post(service, '/api/tenancy/contact-roles/', { name: 'Admin', slug: 'admin' });
  const billing = await post(service, '/api/tenancy/contact-roles/', { name: 'Billing', slug: 'billing' });
  const dc1 = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const dc2 = await post(service, '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2' });
  const dc3 = await post(service, '/api/dcim/sites/', { name: 'DC-3', slug: 'dc-3' });
  const acme = await post(service, '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
  const initech = await post(service, '/api/tenancy/tenants/', { name: 'Initech', slug: 'initech' });
  const type = await post(service, '/api/virtualization/cluster-types/', { name: 'KVM', slug: 'kvm' });
  const cluster = await post(service, '/api/virtualization/clusters/', { name: 'c1', type: type.id });
  const web1 = await post(service, '/api/virtualization/virtual-machines/', { name: 'web1', cluster: cluster.id });
  const web2 = await post(service, '/api/virtualization/virtual-machines/', { name: 'web2', cluster: cluster.id });
  const aliceDc1 = await assign(service, 'dcim.site', dc1.id, alice.id, admin.id, { priority: 'primary' });
  const bobDc2 = await assign(service, 'dcim.site', dc2.id, bob.id, billing.id);
  const carolAcme = await assign(service, 'tenancy.tenant', acme.id, carol.id, admin.id);
  const aliceWeb1 = await assign(service, 'virtualization.virtualmachine', web1.id, alice.id, billing.id);
  return {
    staff,
    noc,
    alice,
    bob,
    carol,
    admin,
    billing,
    dc1,
    dc2,
    dc3,
    acme,
    initech,
    web1,
    web2,
    aliceDc1,
    bobDc2,
    carolAcme,
    aliceWeb1,
  };
}

test("a contact assignment renders its object in the target model's nested form, contact and role nested, priority as a choice", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const read = await service.api('GET', `/api/tenancy/contact-assignments/${e.aliceDc1.id}/`);
  t.is(read.status, 200);
  const body = read.body;
  t.deepEqual(Object.keys(body), [
    'id',
    'url',
    'display',
    'content_type',
    'object_id',
    'object',
    'contact',
    'role',
    'priority',
    'created',
    'last_updated',
  ]);
  t.is(body.content_type, 'dcim.site');
  t.is(body.object_id, e.dc1.id);
  t.deepEqual(body.object, {
    id: e.dc1.id,
    url: `${service.url}/api/dcim/sites/${e.dc1.id}/`,
    display: 'DC-1',
    name: 'DC-1',
    slug: 'dc-1',
  });
  t.deepEqual(body.contact, {
    id: e.alice.id,
    url: `${service.url}/api/tenancy/contacts/${e.alice.id}/`,
    display: 'Alice',
    name: 'Alice',
  });
  t.is(body.role.slug, 'admin');
  t.deepEqual(body.priority, { value: 'primary', label: 'Primary' });
  t.is(body.display, 'Alice (Primary) -> DC-1');
  const vm = (await service.api('GET', `/api/tenancy/contact-assignments/${e.aliceWeb1.id}/`)).body;
  t.deepEqual(vm.object, {
    id: e.web1.id,
    url: `${service.url}/api/virtualization/virtual-machines/${e.web1.id}/`,
    display: 'web1',
    name: 'web1',
  });
  t.is(vm.priority, null);
  t.is(vm.display, 'Alice -> web1');
  // NetBox's brief form: the role as its id, the priority bare
  const brief = (await service.api('GET', `/api/tenancy/contact-assignments/${e.aliceDc1.id}/?brief=1`)).body;
  t.deepEqual(Object.keys(brief), ['id', 'url', 'display', 'contact', 'role', 'priority']);
  t.is(brief.role, e.admin.id);
  t.is(brief.priority, 'primary');
  // the contact group tree: depth and count
  const noc = (await service.api('GET', `/api/tenancy/contact-groups/${e.noc.id}/`)).body;
  t.is(noc._depth, 1);
  t.is(noc.parent.id, e.staff.id);
  t.is(noc.contact_count, 1);
});

test('contact assignments are unique per object, contact and role; the role is required; the object must exist', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const again = await service.api('POST', '/api/tenancy/contact-assignments/', {
    content_type: 'dcim.site',
    object_id: e.dc1.id,
    contact: e.alice.id,
    role: e.admin.id,
  });
  t.is(again.status, 400);
  t.deepEqual(again.body, {
    __all__: ['Contact assignment with this Content type, Object id, Contact and Role already exists.'],
  });
  // another role, or another object, is a new assignment
  t.truthy(await assign(service, 'dcim.site', e.dc1.id, e.alice.id, e.billing.id));
  t.truthy(await assign(service, 'dcim.site', e.dc3.id, e.alice.id, e.admin.id));
  const noRole = await service.api('POST', '/api/tenancy/contact-assignments/', {
    content_type: 'dcim.site',
    object_id: e.dc3.id,
    contact: e.bob.id,
  });
  t.is(noRole.status, 400);
  t.deepEqual(noRole.body, { role: ['This field cannot be null.'] });
  const missing = await service.api('POST', '/api/tenancy/contact-assignments/', {
    content_type: 'dcim.site',
    object_id: 9999,
    contact: e.bob.id,
    role: e.admin.id,
  });
  t.is(missing.status, 400);
  t.truthy(missing.body.object_id);
  const notContactModel = await service.api('POST', '/api/tenancy/contact-assignments/', {
    content_type: 'dcim.interface',
    object_id: 1,
    contact: e.bob.id,
    role: e.admin.id,
  });
  t.is(notContactModel.status, 400);
  t.truthy(notContactModel.body.content_type);
});

test('deleting an object deletes its contact assignments; contacts and roles still assigned are protected', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  t.is((await service.api('DELETE', `/api/dcim/sites/${e.dc1.id}/`)).status, 204);
  t.is((await service.api('GET', `/api/tenancy/contact-assignments/${e.aliceDc1.id}/`)).status, 404);
  t.is(
    (await service.api('GET', `/api/tenancy/contact-assignments/${e.aliceWeb1.id}/`)).status,
    200,
    'other assignments of the contact stay',
  );
  const changes = (
    await service.api('GET', `/api/extras/object-changes/?changed_object_type=tenancy.contactassignment&action=delete`)
  ).body;
  t.is(changes.count, 1, 'the cascade is recorded as its own change');
  t.is((await service.api('DELETE', `/api/virtualization/virtual-machines/${e.web1.id}/`)).status, 204);
  t.is((await service.api('GET', `/api/tenancy/contact-assignments/${e.aliceWeb1.id}/`)).status, 404);
  // Bob is still assigned to DC-2 as Billing
  const contact = await service.api('DELETE', `/api/tenancy/contacts/${e.bob.id}/`);
  t.is(contact.status, 409);
  t.regex(contact.body.detail, /^Unable to delete object\. 1 dependent objects were found: Bob -> DC-2 \(\d+\)$/);
  const role = await service.api('DELETE', `/api/tenancy/contact-roles/${e.billing.id}/`);
  t.is(role.status, 409);
  // Alice has no assignment left
  t.is((await service.api('DELETE', `/api/tenancy/contacts/${e.alice.id}/`)).status, 204);
  // a group's delete removes its subtree and leaves its contacts without a group
  t.is((await service.api('DELETE', `/api/tenancy/contact-groups/${e.staff.id}/`)).status, 204);
  t.is((await service.api('GET', `/api/tenancy/contact-groups/${e.noc.id}/`)).status, 404);
  t.is((await service.api('GET', `/api/tenancy/contacts/${e.bob.id}/`)).body.group, null);
});

test('contact, contact_role and contact_group filter sites, tenants and virtual machines by their assignments', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const sites = '/api/dcim/sites/';
  t.deepEqual(await names(service, sites, `contact=${e.alice.id}`), ['DC-1']);
  t.deepEqual(await names(service, sites, `contact=${e.alice.id}&contact=${e.bob.id}`), ['DC-1', 'DC-2']);
  t.deepEqual(await names(service, sites, `contact__n=${e.alice.id}`), ['DC-2', 'DC-3']);
  t.deepEqual(await names(service, sites, `contact=null`), ['DC-3']);
  t.deepEqual(await names(service, sites, `contact_role=${e.billing.id}`), ['DC-2']);
  // a group matches the contacts of its descendant groups too
  t.deepEqual(await names(service, sites, `contact_group=${e.staff.id}`), ['DC-1', 'DC-2']);
  t.deepEqual(await names(service, sites, `contact_group=${e.noc.id}`), ['DC-1']);
  // a contact assigned to a tenant does not make a site of the same id match
  const tenants = '/api/tenancy/tenants/';
  t.deepEqual(await names(service, tenants, `contact=${e.carol.id}`), ['Acme']);
  t.deepEqual(await names(service, tenants, `contact_role=${e.admin.id}`), ['Acme']);
  t.deepEqual(await names(service, tenants, `contact_group=${e.staff.id}`), []);
  t.deepEqual(
    await names(service, tenants, `contact_group=null`),
    ['Acme', 'Initech'],
    'Carol has no group; Initech no assignment',
  );
  const vms = '/api/virtualization/virtual-machines/';
  t.deepEqual(await names(service, vms, `contact=${e.alice.id}`), ['web1']);
  t.deepEqual(await names(service, vms, `contact_role=${e.admin.id}`), []);
  t.deepEqual(await names(service, vms, `contact_group=${e.staff.id}`), ['web1']);
  // unknown values are refused as NetBox refuses them
  const unknown = await service.api('GET', `${sites}?contact=9999`);
  t.is(unknown.status, 400);
  t.deepEqual(unknown.body, { contact: ['Select a valid choice. 9999 is not one of the available choices.'] });
});

test('contact assignments filter by content type, object, contact, role and priority', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const ids = async (query: string) => {
    const response = await service.api('GET', `/api/tenancy/contact-assignments/?${query}`);
    t.is(response.status, 200, `${query} ${JSON.stringify(response.body)}`);
    return response.body.results.map((a: any) => a.id).sort((a: number, b: number) => a - b);
  };
  t.deepEqual(await ids('content_type=dcim.site'), [e.aliceDc1.id, e.bobDc2.id]);
  t.deepEqual(await ids('content_type__n=dcim.site'), [e.carolAcme.id, e.aliceWeb1.id]);
  t.deepEqual(await ids(`content_type=dcim.site&object_id=${e.dc2.id}`), [e.bobDc2.id]);
  t.deepEqual(await ids(`contact_id=${e.alice.id}`), [e.aliceDc1.id, e.aliceWeb1.id]);
  t.deepEqual(await ids(`role=billing`), [e.bobDc2.id, e.aliceWeb1.id]);
  t.deepEqual(await ids(`role_id=${e.admin.id}`), [e.aliceDc1.id, e.carolAcme.id]);
  t.deepEqual(await ids('priority=primary'), [e.aliceDc1.id]);
  const siteType = new ContentTypes(registry).id('dcim.site');
  t.deepEqual(await ids(`content_type_id=${siteType}`), [e.aliceDc1.id, e.bobDc2.id]);
  t.deepEqual(await ids(`content_type_id__n=${siteType}`), [e.carolAcme.id, e.aliceWeb1.id]);
  const unknownType = await service.api('GET', '/api/tenancy/contact-assignments/?content_type_id=99999');
  t.is(unknownType.status, 400);
  t.deepEqual(unknownType.body, {
    content_type_id: ['Select a valid choice. That choice is not one of the available choices.'],
  });
  // NetBox's generated model choice filter: one value, the last
  t.deepEqual(await ids(`content_type_id=99999&content_type_id=${siteType}`), [e.aliceDc1.id, e.bobDc2.id]);
  // django-filter's null choice: assignments without a type (none), and with one (all)
  t.deepEqual(await ids('content_type_id=null'), []);
  t.deepEqual(await ids('content_type_id__n=null'), [e.aliceDc1.id, e.bobDc2.id, e.carolAcme.id, e.aliceWeb1.id]);
});

import anyTest, { type TestFn } from 'ava';

import { changesOf, makeDevice, must, requestIdOf, unique } from '../support/auditRequests.js';
import { startService, type TestService } from '../support/startService.js';

const test = anyTest as TestFn<{ service: TestService }>;

test.before(async (t) => {
  t.context.service = await startService();
});
test.after.always(async (t) => {
  await t.context.service?.close();
});

test('revert of a bulk create deletes every object, as one new linked request', async (t) => {
  const { service } = t.context;
  const names = [unique('rv'), unique('rv'), unique('rv')];
  const created = await must(
    service.api(
      'POST',
      '/api/dcim/sites/',
      names.map((name) => ({ name, slug: name })),
    ),
    201,
  );
  const target = requestIdOf(created);
  const reverted = await must(service.api('POST', `/api/extras/requests/${target}/revert/`), 200);
  const revertId = requestIdOf(reverted);
  t.not(revertId, target);
  t.is(reverted.body.request_id, revertId);
  t.is(reverted.body.reverted_request_id, target);
  t.is(reverted.body.count, 3);
  t.true(
    reverted.body.changes.every(
      (c: any) => c.action.value === 'delete' && c.revert_of === target && c.request_id === revertId,
    ),
  );
  for (const site of created.body) t.is((await service.api('GET', `/api/dcim/sites/${site.id}/`)).status, 404);

  // The log links both ways: the revert's changes under its own id, the original knows its revert.
  const changes = await changesOf(service, revertId);
  t.is(changes.length, 3);
  t.deepEqual(changes.map((c) => c.changed_object_id).sort(), created.body.map((s: any) => s.id).sort());
  const original = await must(service.api('GET', `/api/extras/requests/${target}/`), 200);
  t.deepEqual(original.body.reverted_by, [revertId]);
  const revert = await must(service.api('GET', `/api/extras/requests/${revertId}/`), 200);
  t.is(revert.body.revert_of, target);

  // Reverting the revert brings them back, with their ids and names.
  const again = await must(service.api('POST', `/api/extras/requests/${revertId}/revert/`), 200);
  t.true(again.body.changes.every((c: any) => c.action.value === 'create'));
  for (const site of created.body) {
    const back = await must(service.api('GET', `/api/dcim/sites/${site.id}/`), 200);
    t.is(back.body.name, site.name);
  }
});

test('revert of an update restores the previous values', async (t) => {
  const { service } = t.context;
  const name = unique('rvu');
  const site = await must(
    service.api('POST', '/api/dcim/sites/', { name, slug: name, description: 'before', facility: 'F1' }),
    201,
  );
  const updated = await must(
    service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, {
      description: 'after',
      facility: 'F2',
      status: 'planned',
    }),
    200,
  );
  const reverted = await must(service.api('POST', `/api/extras/requests/${requestIdOf(updated)}/revert/`), 200);
  t.is(reverted.body.count, 1);
  const [change] = reverted.body.changes;
  t.is(change.action.value, 'update');
  t.is(change.prechange_data.description, 'after');
  t.is(change.postchange_data.description, 'before');
  const now = await must(service.api('GET', `/api/dcim/sites/${site.body.id}/`), 200);
  t.is(now.body.description, 'before');
  t.is(now.body.facility, 'F1');
  t.deepEqual(now.body.status, { value: 'active', label: 'Active' });
});

test('revert of a cascading delete recreates the parent before its children', async (t) => {
  const { service } = t.context;
  const { device, interfaces } = await makeDevice(service, 2);
  const deleted = await must(service.api('DELETE', `/api/dcim/devices/${device.id}/`), 204);
  const reverted = await must(service.api('POST', `/api/extras/requests/${requestIdOf(deleted)}/revert/`), 200);
  t.deepEqual(
    reverted.body.changes.map((c: any) => c.changed_object_type),
    ['dcim.device', 'dcim.interface', 'dcim.interface'],
  );
  t.is((await must(service.api('GET', `/api/dcim/devices/${device.id}/`), 200)).body.name, device.name);
  const ifaces = await must(service.api('GET', `/api/dcim/interfaces/?device_id=${device.id}`), 200);
  t.deepEqual(ifaces.body.results.map((i: any) => i.id).sort(), interfaces.map((i: any) => i.id).sort());
});

test('a revert is refused with 409 and a reason when a later change conflicts; nothing is written', async (t) => {
  const { service } = t.context;
  const name = unique('rvc');
  const site = await must(service.api('POST', '/api/dcim/sites/', { name, slug: name, description: 'v1' }), 201);
  const first = await must(service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { description: 'v2' }), 200);
  const later = await must(service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { description: 'v3' }), 200);
  const refused = await service.api('POST', `/api/extras/requests/${requestIdOf(first)}/revert/`);
  t.is(refused.status, 409);
  t.regex(
    refused.body.detail,
    new RegExp(
      `^Cannot revert request ${requestIdOf(first)}: dcim\\.site ${site.body.id} \\(${name}\\) was changed since \\(by request ${requestIdOf(later)}`,
    ),
  );
  t.is((await changesOf(service, requestIdOf(refused))).length, 0, 'the refused revert left nothing in the log');
  t.is((await must(service.api('GET', `/api/dcim/sites/${site.body.id}/`), 200)).body.description, 'v3');

  // A create whose object is now referred to by a later object cannot be undone either.
  const parentName = unique('rvp');
  const parent = await must(service.api('POST', '/api/dcim/sites/', { name: parentName, slug: parentName }), 201);
  await must(service.api('POST', '/api/dcim/racks/', { name: unique('rack'), site: parent.body.id }), 201);
  const referenced = await service.api('POST', `/api/extras/requests/${requestIdOf(parent)}/revert/`);
  t.is(referenced.status, 409);
  t.regex(referenced.body.detail, /is referred to by dcim\.rack \d+/);

  // Recreating a deleted object whose name was taken since would break uniqueness.
  const goneName = unique('rvg');
  const gone = await must(service.api('POST', '/api/dcim/sites/', { name: goneName, slug: goneName }), 201);
  const deletion = await must(service.api('DELETE', `/api/dcim/sites/${gone.body.id}/`), 204);
  await must(service.api('POST', '/api/dcim/sites/', { name: goneName, slug: `${goneName}-2` }), 201);
  const clash = await service.api('POST', `/api/extras/requests/${requestIdOf(deletion)}/revert/`);
  t.is(clash.status, 409);
  t.regex(clash.body.detail, /would break a uniqueness rule: site with this name already exists\./);

  // Reverting twice: the second one names the first revert.
  const once = await must(service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { description: 'v4' }), 200);
  const firstRevert = await must(service.api('POST', `/api/extras/requests/${requestIdOf(once)}/revert/`), 200);
  const twice = await service.api('POST', `/api/extras/requests/${requestIdOf(once)}/revert/`);
  t.is(twice.status, 409);
  t.is(
    twice.body.detail,
    `Cannot revert request ${requestIdOf(once)}: it was already reverted by request ${requestIdOf(firstRevert)}.`,
  );
});

test('revert: unknown requests are 404, writes need a token, other methods 405', async (t) => {
  const { service } = t.context;
  t.is((await service.api('POST', '/api/extras/requests/00000000-0000-4000-8000-000000000000/revert/')).status, 404);
  t.is((await service.api('POST', '/api/extras/requests/not-a-uuid/revert/')).status, 404);
  t.is((await service.api('GET', '/api/extras/requests/00000000-0000-4000-8000-000000000000/revert/')).status, 405);
  const anonymous = await fetch(`${service.url}/api/extras/requests/00000000-0000-4000-8000-000000000000/revert/`, {
    method: 'POST',
  });
  t.is(anonymous.status, 403);
});

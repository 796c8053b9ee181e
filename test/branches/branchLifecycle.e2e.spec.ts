import anyTest, { type TestFn } from 'ava';

import { must, requestIdOf, unique } from '../support/auditRequests.js';
import { type ApiResponse, startService, type TestService } from '../support/startService.js';
import { removeDir, tempDir } from '../support/tempDirs.js';

const test = anyTest as TestFn<{ service: TestService }>;

test.before(async (t) => {
  t.context.service = await startService();
});
test.after.always(async (t) => {
  await t.context.service?.close();
});

const BRANCHES = '/api/plugins/branching/branches/';

/** The objects of a list, all pages, as the API shows them (without the fields every write stamps). */
async function everything(
  service: TestService,
  path: string,
  headers: Record<string, string> = {},
): Promise<Map<number, unknown>> {
  const r = await must(
    service.api('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000`, undefined, headers),
    200,
  );
  return new Map(
    r.body.results.map((o: Record<string, unknown>) => {
      const { last_updated: _l, created: _c, ...rest } = o;
      // links without the service's address (a restart listens on another port)
      return [o.id as number, JSON.parse(JSON.stringify(rest).replace(/http:\/\/127\.0\.0\.1:\d+/g, ''))];
    }),
  );
}

/** Main's set-up: a site, a device type with two interface templates, a role, a prefix. */
async function mainEstate(service: TestService) {
  const name = unique('br');
  const post = async (path: string, body: unknown) => (await must(service.api('POST', path, body), 201)).body;
  const site = await post('/api/dcim/sites/', { name, slug: name });
  const manufacturer = await post('/api/dcim/manufacturers/', { name, slug: name });
  const deviceType = await post('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: name, slug: name });
  for (const ifname of ['eth0', 'eth1'])
    await post('/api/dcim/interface-templates/', { device_type: deviceType.id, name: ifname, type: '1000base-t' });
  const role = await post('/api/dcim/device-roles/', { name, slug: name, color: 'ff0000' });
  const octet = 1 + Math.floor(Math.random() * 250);
  const prefix = await post('/api/ipam/prefixes/', { prefix: `10.${octet}.7.0/29` });
  return { name, site, deviceType, role, prefix };
}

test('a branch walks its life: built in isolation, conflict refused, resolved, merged as one request, reverted', async (t) => {
  const { service } = t.context;
  const estate = await mainEstate(service);
  const branch = (await must(service.api('POST', BRANCHES, { name: unique('build-out'), description: 'rack 1' }), 201))
    .body;
  t.regex(branch.schema_id, /^[a-z0-9]{8}$/);
  t.is(branch.status.value, 'ready');
  const inBranch = { 'X-NetBox-Branch': branch.schema_id };
  const api = (method: string, path: string, body?: unknown): Promise<ApiResponse> =>
    service.api(method, path, body, inBranch);

  // Build a rack of two devices (interfaces come from the templates), a cable and addresses, in the branch.
  const rack = (await must(api('POST', '/api/dcim/racks/', { name: `${estate.name}-r1`, site: estate.site.id }), 201))
    .body;
  const devices = [];
  for (const n of [1, 2])
    devices.push(
      (
        await must(
          api('POST', '/api/dcim/devices/', {
            name: `${estate.name}-d${n}`,
            device_type: estate.deviceType.id,
            device_role: estate.role.id,
            site: estate.site.id,
            rack: rack.id,
          }),
          201,
        )
      ).body,
    );
  const ifaces = await everything(service, `/api/dcim/interfaces/?site_id=${estate.site.id}&ordering=device`, inBranch);
  t.is(ifaces.size, 4, 'the templates were instantiated in the branch');
  const [a, b] = [...ifaces.values()] as Array<{ id: number; device: { id: number } }>;
  const cable = (
    await must(
      api('POST', '/api/dcim/cables/', {
        a_terminations: [{ object_type: 'dcim.interface', object_id: a!.id }],
        b_terminations: [
          {
            object_type: 'dcim.interface',
            object_id: [...ifaces.values()][2] && ([...ifaces.values()][2] as { id: number }).id,
          },
        ],
      }),
      201,
    )
  ).body;
  t.truthy(cable.id);
  t.truthy(b);
  const firstIp = (await must(api('POST', `/api/ipam/prefixes/${estate.prefix.id}/available-ips/`, {}), 201)).body;
  const secondIp = (await must(api('POST', `/api/ipam/prefixes/${estate.prefix.id}/available-ips/`, {}), 201)).body;
  t.not(firstIp.address, secondIp.address, 'allocation in the branch never hands out an address taken in the branch');
  const trace = await must(api('GET', `/api/dcim/interfaces/${a!.id}/trace/`), 200);
  t.true(Array.isArray(trace.body) && trace.body.length > 0, 'a trace follows the branch cable');

  // Main is unchanged.
  t.is((await service.api('GET', `/api/dcim/racks/${rack.id}/`)).status, 404);
  const rackChanges = `/api/extras/object-changes/?changed_object_type=dcim.rack&changed_object_id=${rack.id}`;
  t.is((await must(service.api('GET', rackChanges), 200)).body.count, 0, "main's change log is main's");
  const siteHistory = `/api/dcim/sites/${estate.site.id}/history/`;
  const historyBefore = (await must(service.api('GET', siteHistory), 200)).body.count;
  t.is((await must(service.api('GET', `/api/dcim/devices/?site_id=${estate.site.id}`), 200)).body.count, 0);
  t.is((await must(service.api('GET', `/api/ipam/ip-addresses/?parent=${estate.prefix.prefix}`), 200)).body.count, 0);
  t.is((await must(api('GET', `/api/dcim/devices/?site_id=${estate.site.id}&brief=1`), 200)).body.count, 2);
  const ownChanges = await must(api('GET', '/api/extras/object-changes/?changed_object_type=dcim.rack'), 200);
  t.deepEqual(
    ownChanges.body.results.map((c: any) => [c.action.value, c.changed_object_id]),
    [['create', rack.id]],
    "the branch's object changes are its own",
  );
  const graphql = await must(
    api('POST', '/graphql/', { query: `{ rack(id: ${rack.id}) { name devices { name } } }` }),
    200,
  );
  t.is(graphql.body.data.rack.devices.length, 2, 'GraphQL reads the branch');
  const fields = await must(api('GET', `/api/dcim/devices/${devices[0].id}/?fields=name,rack`), 200);
  t.deepEqual(Object.keys(fields.body).sort(), ['id', 'name', 'rack']);

  // ?as_of= inside the branch: the branch as it was then.
  const rackPosition = Number((await api('GET', `/api/dcim/racks/${rack.id}/`)).headers.get('etag')!.replace(/"/g, ''));
  const racksAt = async (position: number) =>
    (await must(api('GET', `/api/dcim/racks/?site_id=${estate.site.id}&as_of=${position}`), 200)).body.count;
  t.is(await racksAt(rackPosition - 1), 0);
  t.is(await racksAt(rackPosition), 1);

  // A change on main meanwhile is not seen in the branch.
  const mainChange = await must(
    service.api('PATCH', `/api/dcim/sites/${estate.site.id}/`, { description: 'main' }),
    200,
  );
  const mainChangePosition = Number(mainChange.headers.get('etag')!.replace(/"/g, ''));
  const siteThen = await must(api('GET', `/api/dcim/sites/${estate.site.id}/?as_of=${mainChangePosition}`), 200);
  t.is(siteThen.body.description, '', "as of a position after the fork, still main's state at the fork");
  t.is((await must(api('GET', `/api/dcim/sites/${estate.site.id}/`), 200)).body.description, '');
  // The branch changes the same field: a conflict.
  await must(api('PATCH', `/api/dcim/sites/${estate.site.id}/`, { description: 'branch' }), 200);
  t.is((await must(service.api('GET', siteHistory), 200)).body.count, historyBefore + 1, "only main's change");
  const branchHistory = (await must(api('GET', siteHistory), 200)).body;
  t.is(branchHistory.count, historyBefore + 1, "in the branch: main's history up to the fork, then the branch's");
  t.is(branchHistory.results[0].postchange_data.description, 'branch');
  t.is(branchHistory.results.at(-1).action.value, 'create');
  const diffs = await must(
    service.api('GET', `/api/plugins/branching/changes/?branch_id=${branch.id}&limit=1000`),
    200,
  );
  const siteDiff = diffs.body.results.find((d: any) => d.object_type === 'dcim.site');
  t.deepEqual(siteDiff.conflicts, ['description']);
  t.is(siteDiff.original_data.description, '');
  t.is(siteDiff.modified_data.description, 'branch');
  t.is(siteDiff.current_data.description, 'main');

  const mainBefore = await everything(service, `/api/dcim/devices/?site_id=${estate.site.id}`);
  const dry = await must(service.api('POST', `${BRANCHES}${branch.id}/merge/`, { commit: false }), 200);
  t.is(dry.body.conflicts.length, 1);
  const refused = await must(service.api('POST', `${BRANCHES}${branch.id}/merge/`, { commit: true }), 409);
  t.is(refused.body.conflicts[0].object_id, estate.site.id);
  t.deepEqual(await everything(service, `/api/dcim/devices/?site_id=${estate.site.id}`), mainBefore, 'nothing merged');

  // Resolved: the branch takes main's value.
  await must(api('PATCH', `/api/dcim/sites/${estate.site.id}/`, { description: 'main' }), 200);
  const views: Record<string, Map<number, unknown>> = {};
  const lists = [
    `/api/dcim/racks/?site_id=${estate.site.id}`,
    `/api/dcim/devices/?site_id=${estate.site.id}`,
    `/api/dcim/interfaces/?site_id=${estate.site.id}`,
    `/api/dcim/cables/?site_id=${estate.site.id}`,
    `/api/ipam/ip-addresses/?parent=${estate.prefix.prefix}`,
    `/api/dcim/sites/?id=${estate.site.id}`,
  ];
  for (const list of lists) views[list] = await everything(service, list, inBranch);

  const merged = await must(service.api('POST', `${BRANCHES}${branch.id}/merge/`, { commit: true }), 200);
  const mergeRequest = requestIdOf(merged);
  t.is(merged.body.branch.status.value, 'merged');
  for (const list of lists)
    t.deepEqual(await everything(service, list), views[list], `main equals the branch: ${list}`);
  const changes = await must(
    service.api('GET', `/api/extras/object-changes/?request_id=${mergeRequest}&limit=1000`),
    200,
  );
  t.true(changes.body.count > 10, 'the merge is one request');
  t.is((await must(service.api('GET', rackChanges), 200)).body.results[0].request_id, mergeRequest);

  // A merged branch is no longer a place to read or write.
  t.is((await api('GET', '/api/dcim/sites/')).status, 400);
  t.is((await service.api('POST', `${BRANCHES}${branch.id}/merge/`, { commit: true })).status, 409);

  // Revert: main back as it was.
  const reverted = await must(service.api('POST', `${BRANCHES}${branch.id}/revert/`, { commit: true }), 200);
  t.is(reverted.body.reverted_request_id, mergeRequest);
  t.is(reverted.body.branch.status.value, 'ready');
  t.deepEqual(await everything(service, `/api/dcim/devices/?site_id=${estate.site.id}`), mainBefore);
  t.is((await service.api('GET', `/api/dcim/racks/${rack.id}/`)).status, 404);
  const events = await must(service.api('GET', `/api/plugins/branching/branch-events/?branch_id=${branch.id}`), 200);
  t.deepEqual(
    events.body.results.map((e: any) => e.type.value),
    ['reverted', 'merged', 'provisioned'],
    'branch events, newest first',
  );
  // ... and the branch, open again, still holds its work.
  t.is((await must(api('GET', `/api/dcim/devices/?site_id=${estate.site.id}`), 200)).body.count, 2);

  // Merged again, and reverted through the audit side's own revert: the branch reopens as well.
  const again = await must(service.api('POST', `${BRANCHES}${branch.id}/merge/`, { commit: true }), 200);
  for (const list of lists) t.deepEqual(await everything(service, list), views[list], `merged again: ${list}`);
  await must(service.api('POST', `/api/extras/requests/${requestIdOf(again)}/revert/`), 200);
  t.is((await must(service.api('GET', `${BRANCHES}${branch.id}/`), 200)).body.status.value, 'ready');
  t.deepEqual(await everything(service, `/api/dcim/devices/?site_id=${estate.site.id}`), mainBefore);
  t.is((await must(api('GET', `/api/dcim/devices/?site_id=${estate.site.id}`), 200)).body.count, 2);
});

test('a header naming no open branch is a 400, never main', async (t) => {
  const { service } = t.context;
  const r = await service.api('GET', '/api/dcim/sites/', undefined, { 'X-NetBox-Branch': 'nosuchbr' });
  t.is(r.status, 400);
  t.regex(r.body.detail, /nosuchbr/);
  const branch = (await must(service.api('POST', BRANCHES, { name: unique('b') }), 201)).body;
  const write = await service.api('POST', '/api/users/tokens/', {}, { 'X-NetBox-Branch': branch.schema_id });
  t.is(write.status, 400, 'access control is not branched');
  const archive = await service.api('POST', `${BRANCHES}${branch.id}/archive/`, { commit: true });
  t.is(archive.status, 409, 'only a merged branch is archived');
});

test('sync: the branch then sees main as it is now, its own changes on top', async (t) => {
  const { service } = t.context;
  const estate = await mainEstate(service);
  const branch = (await must(service.api('POST', BRANCHES, { name: unique('sync') }), 201)).body;
  const inBranch = { 'X-NetBox-Branch': branch.schema_id };
  await must(service.api('PATCH', `/api/dcim/sites/${estate.site.id}/`, { description: 'later on main' }), 200);
  await must(service.api('PATCH', `/api/dcim/sites/${estate.site.id}/`, { comments: 'branch' }, inBranch), 200);
  t.is(
    (await must(service.api('GET', `/api/dcim/sites/${estate.site.id}/`, undefined, inBranch), 200)).body.description,
    '',
  );
  // Both sides changed the facility: a dry run says main's value will replace the branch's, and writes nothing.
  await must(service.api('PATCH', `/api/dcim/sites/${estate.site.id}/`, { facility: 'main' }), 200);
  await must(service.api('PATCH', `/api/dcim/sites/${estate.site.id}/`, { facility: 'branch' }, inBranch), 200);
  const dry = await must(service.api('POST', `${BRANCHES}${branch.id}/sync/`, { commit: false }), 200);
  t.is(dry.body.commit, false);
  t.deepEqual(dry.body.main_values, [
    {
      object_type: 'dcim.site',
      object_id: estate.site.id,
      object_repr: estate.site.name,
      fields: { facility: { branch: 'branch', main: 'main' } },
    },
  ]);
  const siteNow = async () =>
    (await must(service.api('GET', `/api/dcim/sites/${estate.site.id}/`, undefined, inBranch), 200)).body;
  t.is((await siteNow()).facility, 'branch', 'a dry run changes nothing');
  const synced = await must(service.api('POST', `${BRANCHES}${branch.id}/sync/`, { commit: true }), 200);
  t.truthy(synced.body.branch.last_sync);
  t.is(synced.body.main_values.length, 1);
  const site = await siteNow();
  t.is(site.description, 'later on main');
  t.is(site.comments, 'branch', "the branch's other changes stay");
  t.is(site.facility, 'main', "main's value wins for a field both changed (netbox-branching applies main's changes)");
  // Sync first, then re-apply the change: it merges without conflict.
  await must(service.api('PATCH', `/api/dcim/sites/${estate.site.id}/`, { facility: 'branch' }, inBranch), 200);
  const diff = await must(service.api('GET', `/api/plugins/branching/changes/?branch_id=${branch.id}`), 200);
  t.true(diff.body.results.length > 0);
  t.true(diff.body.results.every((d: { conflicts: string[] | null }) => d.conflicts === null));
});

test('branches live in the log: after a restart the branch shows what it showed, main too', async (t) => {
  const dir = tempDir('netledger-branches-');
  t.teardown(() => removeDir(dir));
  const first = await startService({}, dir);
  const estate = await mainEstate(first);
  const branch = (await must(first.api('POST', BRANCHES, { name: unique('restart') }), 201)).body;
  const inBranch = { 'X-NetBox-Branch': branch.schema_id };
  const rack = (await must(first.api('POST', '/api/dcim/racks/', { name: 'R1', site: estate.site.id }, inBranch), 201))
    .body;
  await must(first.api('PATCH', `/api/dcim/sites/${estate.site.id}/`, { description: 'main, after the fork' }), 200);
  // A second branch, synced after main's first change: its fork is the sync.
  const synced = (await must(first.api('POST', BRANCHES, { name: unique('restart-sync') }), 201)).body;
  const inSynced = { 'X-NetBox-Branch': synced.schema_id };
  await must(first.api('PATCH', `/api/dcim/sites/${estate.site.id}/`, { comments: 'synced branch' }, inSynced), 200);
  await must(first.api('PATCH', `/api/dcim/sites/${estate.site.id}/`, { description: 'main, before the sync' }), 200);
  await must(first.api('POST', `${BRANCHES}${synced.id}/sync/`, { commit: true }), 200);
  await must(first.api('POST', '/api/dcim/racks/', { name: 'R-main', site: estate.site.id }), 201);
  const lists = [`/api/dcim/racks/?site_id=${estate.site.id}`, `/api/dcim/sites/?id=${estate.site.id}`];
  const before: Record<string, [Map<number, unknown>, Map<number, unknown>]> = {};
  for (const list of lists) before[list] = [await everything(first, list, inBranch), await everything(first, list)];
  const syncedBefore = await everything(first, lists[1]!, inSynced);
  t.like([...syncedBefore.values()][0], { description: 'main, before the sync', comments: 'synced branch' });
  await first.close();
  const again = await startService({}, dir);
  t.teardown(() => again.close());
  for (const list of lists) {
    t.deepEqual(await everything(again, list, inBranch), before[list]![0], `the branch, ${list}`);
    t.deepEqual(await everything(again, list), before[list]![1], `main, ${list}`);
  }
  t.deepEqual(await everything(again, lists[1]!, inSynced), syncedBefore, 'the synced branch');
  // A new object on main after the restart takes an id the branch has not used.
  const onMain = (await must(again.api('POST', '/api/dcim/racks/', { name: 'R2', site: estate.site.id }), 201)).body;
  t.true(onMain.id > rack.id);
});

test('branches CRUD as netbox-branching: fields, filters, name uniqueness, bad input, delete', async (t) => {
  const { service } = t.context;
  const name = unique('crud');
  const created = (await must(service.api('POST', BRANCHES, { name, description: 'd', comments: 'c' }), 201)).body;
  t.deepEqual(Object.keys(created).sort(), [
    'applied_migrations',
    'comments',
    'created',
    'custom_fields',
    'description',
    'display',
    'id',
    'last_sync',
    'last_updated',
    'merged_by',
    'merged_time',
    'name',
    'owner',
    'schema_id',
    'status',
    'tags',
    'url',
  ]);
  t.is(created.url, `${service.url}${BRANCHES}${created.id}/`);
  const options = await must(service.api('OPTIONS', BRANCHES), 200);
  t.is(options.body.name, 'Branch List');
  t.like(options.body.actions.POST.name, { type: 'string', required: true, read_only: false, max_length: 100 });
  t.like(options.body.actions.POST.schema_id, { read_only: true });
  t.is(created.owner.username, 'admin');
  t.deepEqual((await service.api('POST', BRANCHES, { name })).body, {
    name: ['branch with this name already exists.'],
  });
  t.deepEqual((await service.api('POST', BRANCHES, {})).body, { name: ['This field is required.'] });
  t.is((await service.api('POST', BRANCHES, [{ name: 'x' }])).status, 400);
  const patched = await must(service.api('PATCH', `${BRANCHES}${created.id}/`, { description: 'new' }), 200);
  t.is(patched.body.description, 'new');
  t.is(patched.body.schema_id, created.schema_id, 'the schema id is not written');
  const listed = await must(
    service.api('GET', `${BRANCHES}?q=${encodeURIComponent(name.slice(0, 10))}&status=ready`),
    200,
  );
  t.true(listed.body.results.some((b: any) => b.id === created.id));
  t.is((await must(service.api('GET', `${BRANCHES}?status=merged&id=${created.id}`), 200)).body.count, 0);
  t.is((await service.api('POST', `${BRANCHES}${created.id}/merge/`, { commit: 'yes' })).status, 400);
  t.is((await service.api('POST', `${BRANCHES}${created.id}/revert/`, { commit: true })).status, 409, 'not merged');
  await must(service.api('DELETE', `${BRANCHES}${created.id}/`), 204);
  t.is((await service.api('GET', `${BRANCHES}${created.id}/`)).status, 404);
  t.is((await service.api('GET', '/api/dcim/sites/', undefined, { 'X-NetBox-Branch': created.schema_id })).status, 400);
  t.is((await service.api('GET', `${BRANCHES}`, undefined, { Authorization: '' })).status, 403);
});

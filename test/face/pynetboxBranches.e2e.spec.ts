/**
 * pynetbox's branch activation (`nb.activate_branch(branch)`, pynetbox >= 7.5: it sends
 * `X-NetBox-Branch`) against the service's netbox-branching API. Skipped (with a message)
 * where pynetbox is absent or too old to have it; scripts/client-tests-pypi.sh runs it with
 * PyPI's newest.
 */
import { spawnSync } from 'node:child_process';

import test from 'ava';

import { pynetboxSkipReason, pynetboxVersion, PYTHON, runPynetbox } from '../support/pynetbox.js';
import { startService } from '../support/startService.js';

const SCRIPT = String.raw`
import json, sys
import pynetbox

url, token = sys.argv[1], sys.argv[2]
nb = pynetbox.api(url, token=token)
out = {}

site = nb.dcim.sites.create(name="Main Site", slug="main-site")
branch = nb.plugins.branching.branches.create(name="py-branch", description="from pynetbox")
out["branch"] = {"schema_id": branch.schema_id, "status": branch.status.value}

with nb.activate_branch(branch):
    rack = nb.dcim.racks.create(name="Planned Rack", site=site.id)
    out["rack_in_branch"] = nb.dcim.racks.get(rack.id).name
    site.description = "changed in the branch"
    site.save()
    out["site_in_branch"] = nb.dcim.sites.get(site.id).description
    out["branches_listed_in_branch"] = [b.name for b in nb.plugins.branching.branches.all()]

out["rack_on_main"] = nb.dcim.racks.get(rack.id)
out["site_on_main"] = nb.dcim.sites.get(site.id).description
out["changes"] = sorted(c.object_type for c in nb.plugins.branching.changes.filter(branch_id=branch.id))

merged = nb.http_session.post(
    url + "/api/plugins/branching/branches/%d/merge/" % branch.id,
    json={"commit": True},
    headers={"Authorization": "Token " + token},
)
out["merge_status"] = merged.status_code
out["rack_after_merge"] = nb.dcim.racks.get(rack.id).name
out["branch_after_merge"] = nb.plugins.branching.branches.get(branch.id).status.value
print(json.dumps(out))
`;

/** Whether the interpreter's pynetbox has activate_branch (7.5 and later). */
function hasActivateBranch(): boolean {
  const probe = spawnSync(PYTHON, ['-c', 'import pynetbox; assert hasattr(pynetbox.api, "activate_branch")']);
  return probe.status === 0;
}

const version = pynetboxVersion();
if (version === null) {
  test.skip(`pynetbox branch activation (skipped: ${pynetboxSkipReason()})`, () => {});
} else if (!hasActivateBranch()) {
  test.skip(`pynetbox ${version} branch activation (skipped: activate_branch needs pynetbox >= 7.5)`, () => {});
} else {
  test(`pynetbox ${version}: activate_branch reads and writes inside the branch; main unchanged until the merge`, async (t) => {
    t.timeout(60_000);
    const service = await startService();
    t.teardown(() => service.close());
    const out = await runPynetbox(t, SCRIPT, service);
    t.regex(out.branch.schema_id, /^[a-z0-9]{8}$/);
    t.is(out.branch.status, 'ready');
    t.is(out.rack_in_branch, 'Planned Rack');
    t.is(out.site_in_branch, 'changed in the branch');
    t.deepEqual(out.branches_listed_in_branch, ['py-branch'], 'the branching API answers with a branch active');
    t.is(out.rack_on_main, null);
    t.is(out.site_on_main, '');
    t.deepEqual(out.changes, ['dcim.rack', 'dcim.site']);
    t.is(out.merge_status, 200);
    t.is(out.rack_after_merge, 'Planned Rack');
    t.is(out.branch_after_merge, 'merged');
  });
}

/**
 * A real NetBox client against the service: Debian's python3-pynetbox run by
 * /usr/bin/python3. Skipped (with a message) where pynetbox is not installed.
 */
import test from 'ava';

import { pynetboxSkipReason, pynetboxVersion, runPynetbox } from '../support/pynetbox.js';
import { startService } from '../support/startService.js';

const SCRIPT = String.raw`
import json, sys
import pynetbox

url, token = sys.argv[1], sys.argv[2]
nb = pynetbox.api(url, token=token)
out = {"version": nb.version}

site = nb.dcim.sites.create(name="Py Site", slug="py-site", status="planned")
out["created"] = {"id": site.id, "status": site.status.value, "url": site.url}
nb.dcim.sites.create(name="Other", slug="other")

found = list(nb.dcim.sites.filter(name="Py Site"))
out["filtered"] = [s.name for s in found]
out["filtered_status"] = sorted(s.name for s in nb.dcim.sites.filter(status="active"))
out["count"] = nb.dcim.sites.count()

choices = nb.dcim.sites.choices()
out["status_choices"] = choices["status"]
out["prefix_status_choices"] = [c["value"] for c in nb.ipam.prefixes.choices()["status"]]

site.description = "saved by pynetbox"
site.status = "active"
out["saved"] = site.save()
again = nb.dcim.sites.get(site.id)
out["after_save"] = {"description": again.description, "status": again.status.value}
out["by_slug"] = nb.dcim.sites.get(slug="py-site").id

out["deleted"] = site.delete()
out["after_delete"] = nb.dcim.sites.get(site.id)
out["status"] = nb.status()["netbox-version"]
print(json.dumps(out))
`;

const version = pynetboxVersion();
if (version === null) {
  test.skip(`pynetbox client (skipped: ${pynetboxSkipReason()})`, () => {});
} else {
  test(`pynetbox ${version}: create, filter, choices, save, delete`, async (t) => {
    t.timeout(60_000);
    const service = await startService();
    t.teardown(() => service.close());
    const out = await runPynetbox(t, SCRIPT, service);
    t.is(out.version, '3.4');
    t.is(out.created.status, 'planned');
    t.is(out.created.url, `${service.url}/api/dcim/sites/${out.created.id}/`);
    t.deepEqual(out.filtered, ['Py Site']);
    t.deepEqual(out.filtered_status, ['Other']);
    t.is(out.count, 2);
    t.deepEqual(out.status_choices, [
      { value: 'planned', display_name: 'Planned' },
      { value: 'staging', display_name: 'Staging' },
      { value: 'active', display_name: 'Active' },
      { value: 'decommissioning', display_name: 'Decommissioning' },
      { value: 'retired', display_name: 'Retired' },
    ]);
    t.deepEqual(out.prefix_status_choices, ['container', 'active', 'reserved', 'deprecated']);
    t.true(out.saved);
    t.deepEqual(out.after_save, { description: 'saved by pynetbox', status: 'active' });
    t.is(out.by_slug, out.created.id);
    t.true(out.deleted);
    t.is(out.after_delete, null);
    t.is(out.status, '3.4.10');
  });
}

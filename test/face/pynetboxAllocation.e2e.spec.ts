/**
 * pynetbox's allocation helpers (available_ips, available_prefixes, available_vlans)
 * against the service: Debian's python3-pynetbox run by /usr/bin/python3. Skipped (with
 * a message) where pynetbox is not installed.
 */
import test from 'ava';

import { pynetboxSkipReason, pynetboxVersion, runPynetbox } from '../support/pynetbox.js';
import { startService } from '../support/startService.js';

const SCRIPT = String.raw`
import json, sys
import pynetbox

url, token = sys.argv[1], sys.argv[2]
nb = pynetbox.api(url, token=token)
out = {}

vrf = nb.ipam.vrfs.create(name="Py VRF")
prefix = nb.ipam.prefixes.create(prefix="10.50.0.0/29", vrf=vrf.id)
listed = prefix.available_ips.list()
out["listed"] = [str(ip) for ip in listed]
out["listed_vrf"] = listed[0].vrf.name
one = prefix.available_ips.create()
out["one"] = {"address": one.address, "vrf": one.vrf.id == vrf.id, "fetched": nb.ipam.ip_addresses.get(one.id).address}
two = prefix.available_ips.create([{}, {"description": "second"}])
out["two"] = [[ip.address, ip.description] for ip in two]
out["after"] = [str(ip) for ip in prefix.available_ips.list()]
try:
    prefix.available_ips.create([{} for _ in range(4)])
    out["exhausted"] = None
except pynetbox.AllocationError as error:
    out["exhausted"] = {"status": error.req.status_code, "detail": error.req.json()["detail"]}

parent = nb.ipam.prefixes.create(prefix="10.60.0.0/24", status="container")
child = parent.available_prefixes.create({"prefix_length": 28})
out["child"] = {"prefix": child.prefix, "id": child.id, "is_prefix": nb.ipam.prefixes.get(child.id).prefix}
out["free_prefixes"] = [str(p) for p in parent.available_prefixes.list()]

group = nb.ipam.vlan_groups.create(name="Py Group", slug="py-group", min_vid=200, max_vid=210)
vlan = group.available_vlans.create({"name": "NewVLAN"})
out["vlan"] = {"vid": vlan.vid, "group": vlan.group.id == group.id, "name": vlan.name}
out["free_vids"] = [v.vid for v in group.available_vlans.list()][:3]
print(json.dumps(out))
`;

const version = pynetboxVersion();
if (version === null) {
  test.skip(`pynetbox allocation helpers (skipped: ${pynetboxSkipReason()})`, () => {});
} else {
  test(`pynetbox ${version}: available_ips, available_prefixes and available_vlans list and create`, async (t) => {
    t.timeout(60_000);
    const service = await startService();
    t.teardown(() => service.close());
    const out = await runPynetbox(t, SCRIPT, service);
    t.deepEqual(out.listed, [
      '10.50.0.1/29',
      '10.50.0.2/29',
      '10.50.0.3/29',
      '10.50.0.4/29',
      '10.50.0.5/29',
      '10.50.0.6/29',
    ]);
    t.is(out.listed_vrf, 'Py VRF');
    t.deepEqual(out.one, { address: '10.50.0.1/29', vrf: true, fetched: '10.50.0.1/29' });
    t.deepEqual(out.two, [
      ['10.50.0.2/29', ''],
      ['10.50.0.3/29', 'second'],
    ]);
    t.deepEqual(out.after, ['10.50.0.4/29', '10.50.0.5/29', '10.50.0.6/29']);
    t.is(out.exhausted.status, 409);
    t.is(
      out.exhausted.detail,
      'An insufficient number of IP addresses are available within 10.50.0.0/29 (4 requested, 3 available)',
    );
    t.is(out.child.prefix, '10.60.0.0/28');
    t.is(out.child.is_prefix, '10.60.0.0/28');
    t.deepEqual(out.free_prefixes, ['10.60.0.16/28', '10.60.0.32/27', '10.60.0.64/26', '10.60.0.128/25']);
    t.deepEqual(out.vlan, { vid: 200, group: true, name: 'NewVLAN' });
    t.deepEqual(out.free_vids, [201, 202, 203]);
  });
}

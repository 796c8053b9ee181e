/**
 * pynetbox's wireless app against the service: wireless LANs created and filtered, a
 * wireless link between two radios, and interface.trace() across it. Debian's
 * python3-pynetbox run by /usr/bin/python3; skipped (with a message) where it is not
 * installed.
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

group = nb.wireless.wireless_lan_groups.create(name="Campus", slug="campus")
vlan = nb.ipam.vlans.create(vid=20, name="staff")
staff = nb.wireless.wireless_lans.create(ssid="staff", group=group.id, vlan=vlan.id, auth_type="wpa-personal", auth_psk="s3cret")
guests = nb.wireless.wireless_lans.create(ssid="guests", auth_type="open")
out["created"] = [str(staff), staff.group.name, staff.vlan.vid, staff.auth_type.value, staff.auth_psk]
out["by_group"] = [str(l) for l in nb.wireless.wireless_lans.filter(group_id=group.id)]
out["by_auth"] = sorted(str(l) for l in nb.wireless.wireless_lans.filter(auth_type=["open", "wpa-personal"]))
out["search"] = [str(l) for l in nb.wireless.wireless_lans.filter("gue")]
out["count"] = nb.wireless.wireless_lan_groups.get(group.id).wirelesslan_count

site = nb.dcim.sites.create(name="Py Site", slug="py-site")
maker = nb.dcim.manufacturers.create(name="Py Maker", slug="py-maker")
kind = nb.dcim.device_types.create(manufacturer=maker.id, model="Py AP", slug="py-ap")
role = nb.dcim.device_roles.create(name="Py Role", slug="py-role")
def device(name):
    return nb.dcim.devices.create(name=name, device_type=kind.id, device_role=role.id, site=site.id)
ap, sta = device("ap"), device("sta")
a = nb.dcim.interfaces.create(device=ap.id, name="wlan0", type="ieee802.11ac", wireless_lans=[staff.id])
b = nb.dcim.interfaces.create(device=sta.id, name="wlan0", type="ieee802.11ac")
link = nb.wireless.wireless_links.create(interface_a=a.id, interface_b=b.id, ssid="bridge")
out["link"] = [str(link), link.interface_a.device.name, link.interface_b.device.name, link.status.value]
a = nb.dcim.interfaces.get(a.id)
out["wireless_link"] = a.wireless_link.ssid
out["lans"] = [l.ssid for l in a.wireless_lans]
out["peer"] = [p.device.name if not isinstance(p, dict) else p["device"]["name"] for p in a.link_peers]
trace = a.trace()
out["trace"] = [[str(x) for x in trace[0]], trace[1].id, [str(x) for x in trace[2]]]
link.delete()
out["after"] = nb.dcim.interfaces.get(a.id).wireless_link
print(json.dumps(out))
`;

const version = pynetboxVersion();
if (version === null) {
  test.skip(`pynetbox wireless (skipped: ${pynetboxSkipReason()})`, () => {});
} else {
  test(`pynetbox ${version}: nb.wireless.wireless_lans.create() and .filter(), a wireless link and interface.trace() across it`, async (t) => {
    t.timeout(60_000);
    const service = await startService();
    t.teardown(() => service.close());
    const out = await runPynetbox(t, SCRIPT, service);
    t.deepEqual(out.created, ['staff', 'Campus', 20, 'wpa-personal', 's3cret']);
    t.deepEqual(out.by_group, ['staff']);
    t.deepEqual(out.by_auth, ['guests', 'staff']);
    t.deepEqual(out.search, ['guests']);
    t.is(out.count, 1);
    t.deepEqual(out.link, ['bridge', 'ap', 'sta', 'connected']);
    t.is(out.wireless_link, 'bridge');
    t.deepEqual(out.lans, ['staff']);
    t.deepEqual(out.peer, ['sta']);
    t.deepEqual(out.trace[0], ['wlan0']);
    t.is(typeof out.trace[1], 'number');
    t.deepEqual(out.trace[2], ['wlan0']);
    t.is(out.after, null);
  });
}

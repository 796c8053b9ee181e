/**
 * pynetbox's cabling workflow against the service: cables created with terminations on
 * each end, interface.trace() across a patch panel, connected endpoints and cable filters.
 * Debian's python3-pynetbox run by /usr/bin/python3; skipped (with a message) where it is
 * not installed.
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

site = nb.dcim.sites.create(name="Py Site", slug="py-site")
maker = nb.dcim.manufacturers.create(name="Py Maker", slug="py-maker")
kind = nb.dcim.device_types.create(manufacturer=maker.id, model="Py Type", slug="py-type")
role = nb.dcim.device_roles.create(name="Py Role", slug="py-role")
def device(name):
    return nb.dcim.devices.create(name=name, device_type=kind.id, device_role=role.id, site=site.id)
leaf, spine, panel = device("leaf"), device("spine"), device("panel")
up = nb.dcim.interfaces.create(device=leaf.id, name="uplink", type="10gbase-x-sfpp")
down = nb.dcim.interfaces.create(device=spine.id, name="swp1", type="10gbase-x-sfpp")
rear = nb.dcim.rear_ports.create(device=panel.id, name="R1", type="lc")
front = nb.dcim.front_ports.create(device=panel.id, name="F1", type="lc", rear_port=rear.id)

c1 = nb.dcim.cables.create(
    a_terminations=[{"object_type": "dcim.interface", "object_id": up.id}],
    b_terminations=[{"object_type": "dcim.frontport", "object_id": front.id}],
    label="leaf-panel", color="00ff00",
)
c2 = nb.dcim.cables.create(
    a_terminations=[{"object_type": "dcim.rearport", "object_id": rear.id}],
    b_terminations=[{"object_type": "dcim.interface", "object_id": down.id}],
)
out["c1"] = {"display": str(c1), "a": [str(t) for t in c1.a_terminations]}
up = nb.dcim.interfaces.get(up.id)
out["cable"] = up.cable.id == c1.id
out["peer"] = [p.name for p in up.link_peers] if up.link_peers and not isinstance(up.link_peers[0], dict) else [p["name"] for p in up.link_peers]
endpoints = up.connected_endpoints
out["endpoints"] = [e.name if not isinstance(e, dict) else e["name"] for e in endpoints]
out["reachable"] = up.connected_endpoints_reachable
# pynetbox flattens the segments: near ends, cable, far ends, near ends, ...
trace = up.trace()
hops = []
for n in range(0, len(trace), 3):
    near, cable, far = trace[n:n + 3]
    hops.append([[str(x) for x in near], cable.id if cable else None, [str(x) for x in far]])
out["trace"] = hops
out["cabled"] = sorted(i.name for i in nb.dcim.interfaces.filter(cabled=True))
out["by_device"] = [c.id for c in nb.dcim.cables.filter(device_id=spine.id)]
c1.delete()
out["after"] = nb.dcim.interfaces.get(up.id).cable
print(json.dumps(out))
`;

const version = pynetboxVersion();
if (version === null) {
  test.skip(`pynetbox cabling (skipped: ${pynetboxSkipReason()})`, () => {});
} else {
  test(`pynetbox ${version}: cables with terminations, interface.trace() through a patch panel, cable filters`, async (t) => {
    t.timeout(60_000);
    const service = await startService();
    t.teardown(() => service.close());
    const out = await runPynetbox(t, SCRIPT, service);
    t.is(out.c1.display, 'uplink <> F1'); // pynetbox names a cable by its ends
    t.deepEqual(out.c1.a, ['uplink']);
    t.true(out.cable);
    t.deepEqual(out.peer, ['F1']);
    t.deepEqual(out.endpoints, ['swp1']);
    t.true(out.reachable);
    t.is(out.trace.length, 2);
    t.deepEqual(out.trace[0][0], ['uplink']);
    t.deepEqual(out.trace[0][2], ['F1']);
    t.deepEqual(out.trace[1][0], ['R1']);
    t.deepEqual(out.trace[1][2], ['swp1']);
    t.deepEqual(out.cabled, ['swp1', 'uplink']);
    t.is(out.by_device.length, 1);
    t.is(out.after, null);
  });
}

/**
 * pynetbox's virtualization endpoints against the service: Debian's python3-pynetbox run
 * by /usr/bin/python3. Skipped (with a message) where pynetbox is not installed.
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
ctype = nb.virtualization.cluster_types.create(name="Py KVM", slug="py-kvm")
cluster = nb.virtualization.clusters.create(name="py-cluster", type=ctype.id, site=site.id)
vm = nb.virtualization.virtual_machines.create(name="py-vm", cluster=cluster.id, vcpus=2, memory=2048)
out["vm"] = {"site": vm.site.slug, "cluster": vm.cluster.name, "status": vm.status.value}
iface = nb.virtualization.interfaces.create(virtual_machine=vm.id, name="eth0", mtu=1500)
out["iface"] = {"vm": iface.virtual_machine.name, "mtu": iface.mtu, "str": str(iface)}
ip = nb.ipam.ip_addresses.create(address="192.0.2.50/24", assigned_object_type="virtualization.vminterface", assigned_object_id=iface.id)
out["ip_on"] = ip.assigned_object.virtual_machine.name
vm.primary_ip4 = ip.id
out["saved"] = vm.save()
fresh = nb.virtualization.virtual_machines.get(vm.id)
out["primary"] = str(fresh.primary_ip)
out["by_vm"] = [str(a) for a in nb.ipam.ip_addresses.filter(virtual_machine_id=vm.id)]
out["interfaces"] = [str(i) for i in nb.virtualization.interfaces.filter(virtual_machine="py-vm")]
out["statuses"] = sorted(c["value"] for c in nb.virtualization.virtual_machines.choices()["status"])
try:
    nb.virtualization.virtual_machines.create(name="nowhere")
    out["refused"] = None
except pynetbox.RequestError as error:
    out["refused"] = error.error
fresh.delete()
out["gone"] = [nb.virtualization.interfaces.get(iface.id) is None, nb.ipam.ip_addresses.get(ip.id) is None]
print(json.dumps(out))
`;

const version = pynetboxVersion();
if (version === null) {
  test.skip(`pynetbox virtualization (skipped: ${pynetboxSkipReason()})`, () => {});
} else {
  test(`pynetbox ${version}: virtual machines, their interfaces and addresses`, async (t) => {
    t.timeout(60_000);
    const service = await startService();
    t.teardown(() => service.close());
    const out = await runPynetbox(t, SCRIPT, service);
    t.deepEqual(out.vm, { site: 'py-site', cluster: 'py-cluster', status: 'active' });
    t.deepEqual(out.iface, { vm: 'py-vm', mtu: 1500, str: 'eth0' });
    t.is(out.ip_on, 'py-vm');
    t.true(out.saved);
    t.is(out.primary, '192.0.2.50/24');
    t.deepEqual(out.by_vm, ['192.0.2.50/24']);
    t.deepEqual(out.interfaces, ['eth0']);
    t.deepEqual(out.statuses, ['active', 'decommissioning', 'failed', 'offline', 'planned', 'staged']);
    t.regex(out.refused, /A virtual machine must be assigned to a site and\/or cluster\./);
    t.deepEqual(out.gone, [true, true]);
  });
}

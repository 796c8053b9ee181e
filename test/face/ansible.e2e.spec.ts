/**
 * Ansible's netbox.netbox collection against the service, the way network teams drive
 * NetBox: Debian's `ansible` runs the playbooks under playbooks/ on localhost, its
 * modules use python3-pynetbox. Skipped (with a message) where ansible-playbook, the
 * collection or pynetbox is missing.
 */
import { fileURLToPath } from 'node:url';

import test from 'ava';

import { allModels } from '../../src/models/index.js';
import { ansibleAvailability, type PlaybookRun, runPlaybook, type TaskResult } from '../support/ansible.js';
import { startService } from '../support/startService.js';

const playbook = (name: string) => fileURLToPath(new URL(`playbooks/${name}`, import.meta.url));
const ESTATE = playbook('virtualization-estate.yml');
const REFUSED = playbook('refused-vlan.yml');

/** The playbook's tasks tagged `vm` need these models; without them those tasks are left out. */
const VM_MODELS = ['virtualization.virtualmachine', 'virtualization.vminterface'];
const vmServed = VM_MODELS.every((key) => allModels.some((model) => model.key === key));

const VM_TASKS = [
  'Virtual machines',
  'VM interfaces',
  'VM address',
  'VM address from the prefix',
  'Look up the virtual machines',
];
/** Tasks that create or change NetBox objects, in play order (the rest only read). */
const WRITING_TASKS = [
  'Tag',
  'Site',
  'Tenant',
  'Device role',
  'Platform',
  'Cluster type',
  'Cluster group',
  'Cluster',
  'Container prefix',
  'Server prefix',
  'VLAN group',
  'VLAN in the group',
  'Manufacturer',
  'Device type',
  'Hypervisor',
  'Hypervisor interface',
  'Hypervisor address',
  'Hypervisor storage interface',
  'Hypervisor storage address from the prefix',
  'Virtual machines',
  'VM interfaces',
  'VM address',
  'VM address from the prefix',
  'New address from the prefix',
  'First available child prefix',
].filter((name) => vmServed || !VM_TASKS.includes(name));
const READING_TASKS = ['Look up the clusters of the site', 'Look up the virtual machines'].filter(
  (name) => vmServed || !VM_TASKS.includes(name),
);
/** `state: new` and `first_available` take the next free address / prefix on every run. */
const ALLOCATING_TASKS = ['New address from the prefix', 'First available child prefix'];

function task(run: PlaybookRun, name: string): TaskResult {
  const found = run.tasks.find((entry) => entry.name === name);
  if (!found) throw new Error(`no task named ${name} ran`);
  return found;
}

function failures(run: PlaybookRun): string {
  const failed = run.tasks.filter((entry) => entry.failed).map((entry) => `${entry.name}: ${entry.msg}`);
  return failed.length ? failed.join('\n') : run.stderr;
}

/** The integer value of an IPv4 address with or without a mask. */
function ipv4Number(address: string): number {
  return address
    .split('/')[0]!
    .split('.')
    .reduce((value, octet) => value * 256 + Number(octet), 0);
}

const availability = ansibleAvailability();
if (availability.skipReason !== null) {
  test.skip(`Ansible netbox.netbox playbooks (skipped: ${availability.skipReason})`, () => {});
} else {
  const version = availability.version;

  // Serial: each playbook run keeps a core busy with Ansible's module processes; two at
  // once would starve the other end-to-end files on a small machine.
  test.serial(
    `netbox.netbox ${version}: the estate playbook creates everything on its first run; the second run changes only the two allocations`,
    async (t) => {
      t.timeout(900_000);
      const service = await startService();
      t.teardown(() => service.close());
      const options = vmServed ? {} : { skipTags: ['vm'] };
      if (!vmServed) t.log(`left out (no virtual-machine / VM-interface model yet): ${VM_TASKS.join(', ')}`);

      const first = await runPlaybook(service, ESTATE, options);
      t.is(first.code, 0, failures(first));
      t.deepEqual(
        first.tasks.map((entry) => entry.name),
        [...WRITING_TASKS, ...READING_TASKS],
      );
      t.deepEqual(
        first.tasks.filter((entry) => entry.failed).map((entry) => entry.name),
        [],
      );
      t.deepEqual(
        first.tasks.filter((entry) => entry.changed).map((entry) => entry.name),
        WRITING_TASKS,
      );
      t.deepEqual(first.recap, {
        ok: WRITING_TASKS.length + READING_TASKS.length,
        changed: WRITING_TASKS.length,
        failures: 0,
        unreachable: 0,
        skipped: 0,
        rescued: 0,
        ignored: 0,
      });

      const second = await runPlaybook(service, ESTATE, options);
      t.is(second.code, 0, failures(second));
      t.deepEqual(
        second.tasks.filter((entry) => entry.changed).map((entry) => entry.name),
        ALLOCATING_TASKS,
      );
      t.deepEqual(second.recap, {
        ok: WRITING_TASKS.length + READING_TASKS.length,
        changed: ALLOCATING_TASKS.length,
        failures: 0,
        unreachable: 0,
        skipped: 0,
        rescued: 0,
        ignored: 0,
      });
      t.regex(task(second, 'Site').msg!, /already exists/);

      // present + prefix + interface found the address it took the first time.
      const storageFirst = task(first, 'Hypervisor storage address from the prefix').result.ip_address;
      const storageSecond = task(second, 'Hypervisor storage address from the prefix').result.ip_address;
      t.is(storageFirst.address, '10.80.1.1/24');
      t.is(storageSecond.id, storageFirst.id);
      t.regex(task(second, 'Hypervisor storage address from the prefix').msg!, /already attached/);

      // Each allocation took the next free one: a new address and prefix, never one taken.
      const ipFirst = task(first, 'New address from the prefix').result.ip_address;
      const ipSecond = task(second, 'New address from the prefix').result.ip_address;
      t.is(ipv4Number(ipSecond.address), ipv4Number(ipFirst.address) + 1);
      t.is(ipFirst.description, 'allocated by Ansible');
      t.is(ipFirst.status, 'reserved'); // pynetbox's serialize() gives a choice as its value
      t.is(task(first, 'First available child prefix').result.prefix.prefix, '10.80.0.0/26');
      t.is(task(second, 'First available child prefix').result.prefix.prefix, '10.80.0.64/26');
      const addresses = await service.api('GET', '/api/ipam/ip-addresses/?parent=10.80.1.0/24&limit=0');
      const taken = addresses.body.results.map((ip: { address: string }) => ip.address);
      t.is(new Set(taken).size, taken.length);
      t.true(taken.includes(ipFirst.address) && taken.includes(ipSecond.address));

      // What the modules sent landed as NetBox would store it.
      const eno1 = await service.api('GET', '/api/dcim/interfaces/?device=ansible-hv1&name=eno1');
      t.is(eno1.body.count, 1);
      t.like(eno1.body.results[0], {
        mtu: 9000,
        mode: { value: 'access' },
        type: { value: '1000base-t' },
        untagged_vlan: { vid: 100, name: 'Ansible Servers' },
      });
      const hvAddress = await service.api('GET', '/api/ipam/ip-addresses/?address=10.80.1.2/24');
      t.like(hvAddress.body.results[0], {
        assigned_object_type: 'dcim.interface',
        assigned_object_id: eno1.body.results[0].id,
        dns_name: 'hv1.example.net',
      });
      const site = await service.api('GET', '/api/dcim/sites/?slug=ansible-dc');
      t.like(site.body.results[0], {
        latitude: 52.52,
        longitude: 13.405,
        time_zone: 'Europe/Berlin',
        tags: [{ slug: 'ansible' }],
      });
      const cluster = await service.api('GET', '/api/virtualization/clusters/?name=Ansible Cluster');
      t.like(cluster.body.results[0], {
        type: { slug: 'ansible-kvm' },
        group: { slug: 'ansible-group' },
        site: { slug: 'ansible-dc' },
        tenant: { slug: 'ansible-tenant' },
      });

      if (vmServed) {
        const vm1 = await service.api('GET', '/api/virtualization/interfaces/?virtual_machine=ansible-vm1&name=eth0');
        t.is(vm1.body.count, 1);
        t.like(vm1.body.results[0], { mtu: 1500, mode: { value: 'access' }, untagged_vlan: { vid: 100 } });
        const vmAddress = await service.api('GET', '/api/ipam/ip-addresses/?address=10.80.1.10/24');
        t.like(vmAddress.body.results[0], {
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: vm1.body.results[0].id,
        });
        const vm2Address = task(second, 'VM address from the prefix');
        t.regex(vm2Address.msg!, /already attached/);
      }
    },
  );

  if (!vmServed) {
    test.skip(`netbox.netbox ${version}: virtual machines, VM interfaces, their addresses and nb_lookup of virtual-machines (skipped: no virtual-machine / VM-interface model in this build)`, () => {});
  }

  test.serial(
    `netbox.netbox ${version}: a value NetBox refuses fails the task with NetBox's error in the message`,
    async (t) => {
      t.timeout(300_000);
      const service = await startService();
      t.teardown(() => service.close());
      const run = await runPlaybook(service, REFUSED);
      t.is(run.code, 2);
      t.deepEqual(run.recap, { ok: 1, changed: 1, failures: 1, unreachable: 0, skipped: 0, rescued: 0, ignored: 0 });
      t.deepEqual(
        run.tasks.map((entry) => [entry.name, entry.failed]),
        [
          ['Site', false],
          ['VLAN with an impossible VID', true],
        ],
      );
      const refused = task(run, 'VLAN with an impossible VID');
      t.false(refused.changed);
      // The module's message is the body of NetBox's 400 as pynetbox received it.
      t.deepEqual(JSON.parse(refused.msg!), { vid: ['Ensure this value is less than or equal to 4094.'] });
      const vlans = await service.api('GET', '/api/ipam/vlans/?name=Too High');
      t.is(vlans.body.count, 0);
    },
  );
}

/**
 * The netbox.netbox collection's L2VPN modules (netbox_l2vpn, netbox_l2vpn_termination)
 * against the service: playbooks/l2vpn.yml creates an L2VPN with its route targets and
 * two terminations, and a second run finds everything in place. Skipped (with a message)
 * where ansible-playbook, the collection or pynetbox is missing.
 */
import { fileURLToPath } from 'node:url';

import test from 'ava';

import { ansibleAvailability, type PlaybookRun, runPlaybook } from '../support/ansible.js';
import { startService } from '../support/startService.js';

const PLAYBOOK = fileURLToPath(new URL('playbooks/l2vpn.yml', import.meta.url));

const TASKS = [
  'Import route target',
  'Export route target',
  'Tenant',
  'L2VPN',
  'Site',
  'Manufacturer',
  'Device role',
  'Device type',
  'Switch',
  'Switch interface',
  'VLAN',
  'Interface termination',
  'VLAN termination',
];

function failures(run: PlaybookRun): string {
  const failed = run.tasks.filter((entry) => entry.failed).map((entry) => `${entry.name}: ${entry.msg}`);
  return failed.length ? failed.join('\n') : run.stderr;
}

const availability = ansibleAvailability();
if (availability.skipReason !== null) {
  test.skip(`Ansible netbox.netbox L2VPN playbook (skipped: ${availability.skipReason})`, () => {});
} else {
  test.serial(
    `netbox.netbox ${availability.version}: the L2VPN playbook creates the L2VPN and its terminations, then changes nothing`,
    async (t) => {
      t.timeout(600_000);
      const service = await startService();
      t.teardown(() => service.close());

      const first = await runPlaybook(service, PLAYBOOK);
      t.is(first.code, 0, failures(first));
      t.deepEqual(
        first.tasks.map((entry) => entry.name),
        TASKS,
      );
      t.deepEqual(
        first.tasks.filter((entry) => entry.changed).map((entry) => entry.name),
        TASKS,
      );

      const second = await runPlaybook(service, PLAYBOOK);
      t.is(second.code, 0, failures(second));
      t.deepEqual(
        second.tasks.filter((entry) => entry.changed).map((entry) => entry.name),
        [],
        'the second run finds everything in place',
      );

      const vpns = await service.api('GET', '/api/ipam/l2vpns/?slug=metro-ethernet');
      t.is(vpns.body.count, 1);
      t.like(vpns.body.results[0], {
        display: 'Metro Ethernet (65100)',
        type: { value: 'vpls' },
        tenant: { name: 'L2 Tenant' },
        import_targets: [{ name: '65100:1' }],
        export_targets: [{ name: '65100:2' }],
      });
      const terminations = await service.api('GET', '/api/ipam/l2vpn-terminations/?l2vpn=metro-ethernet');
      t.deepEqual(terminations.body.results.map((term: any) => term.assigned_object_type).sort(), [
        'dcim.interface',
        'ipam.vlan',
      ]);
      const iface = await service.api('GET', '/api/dcim/interfaces/?device=l2-sw1&name=xe-0/0/1');
      t.like(iface.body.results[0].l2vpn_termination, { l2vpn: { name: 'Metro Ethernet', identifier: 65100 } });
      const vlan = await service.api('GET', '/api/ipam/vlans/?vid=300');
      t.like(vlan.body.results[0].l2vpn_termination, { l2vpn: { slug: 'metro-ethernet' } });
    },
  );
}

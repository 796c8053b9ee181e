/**
 * One netbox.netbox module per model family the registry gained with the rest of NetBox
 * 3.4 (contacts, ASNs, FHRP groups and assignments, service templates and services,
 * wireless LAN groups, LANs and links): Debian's `ansible` runs playbooks/families.yml
 * twice; the second run changes nothing. Skipped (with a message) where ansible-playbook,
 * the collection or pynetbox is missing.
 */
import { fileURLToPath } from 'node:url';

import test from 'ava';

import { ansibleAvailability, type PlaybookRun, runPlaybook } from '../support/ansible.js';
import { startService } from '../support/startService.js';

const FAMILIES = fileURLToPath(new URL('playbooks/families.yml', import.meta.url));

function failures(run: PlaybookRun): string {
  return (
    run.tasks
      .filter((entry) => entry.failed)
      .map((entry) => `${entry.name}: ${entry.msg}`)
      .join('\n') || run.stderr
  );
}

const availability = ansibleAvailability();
if (availability.skipReason !== null) {
  test.skip(`Ansible netbox.netbox contacts, ASN, FHRP, service and wireless playbook (skipped: ${availability.skipReason})`, () => {});
} else {
  test.serial(
    `netbox.netbox ${availability.version}: contacts, ASNs, FHRP groups, services and wireless links are created once; the second run changes nothing`,
    async (t) => {
      t.timeout(600_000);
      const service = await startService();
      t.teardown(() => service.close());
      const first = await runPlaybook(service, FAMILIES);
      t.is(first.code, 0, failures(first));
      t.false(first.tasks.some((entry) => entry.failed));

      const second = await runPlaybook(service, FAMILIES);
      t.is(second.code, 0, failures(second));
      t.deepEqual(
        second.tasks.filter((entry) => entry.changed).map((entry) => entry.name),
        [],
      );

      const get = async (path: string) => (await service.api('GET', path)).body;
      t.like((await get('/api/tenancy/contacts/?name=Ada Lovelace')).results[0], { email: 'ada@example.com' });
      const rir = (await get('/api/ipam/rirs/?name=RIPE')).results[0];
      // NetBox 3.4.10 reads an ASN's RIR as a bare id
      t.like((await get('/api/ipam/asns/?asn=64512')).results[0], { asn: 64512, rir: rir.id });
      const assignment = (await get('/api/ipam/fhrp-group-assignments/')).results;
      t.is(assignment.length, 1);
      t.like(assignment[0], {
        priority: 100,
        interface_type: 'dcim.interface',
        group: { protocol: 'vrrp3', group_id: 10 },
      });
      t.like((await get('/api/ipam/services/?device=ap1')).results[0], {
        name: 'ssh',
        ports: [22],
        protocol: { value: 'tcp' },
      });
      t.like((await get('/api/wireless/wireless-lans/?ssid=campus-net')).results[0], {
        group: { name: 'Campus' },
        status: { value: 'active' },
      });
      const links = (await get('/api/wireless/wireless-links/')).results;
      t.is(links.length, 1);
      t.like(links[0], {
        ssid: 'backhaul',
        interface_a: { name: 'wlan0', device: { name: 'ap1' } },
        interface_b: { name: 'wlan0', device: { name: 'ap2' } },
      });
      const radio = (await get('/api/dcim/interfaces/?device=ap1&name=wlan0')).results[0];
      t.is(radio.wireless_link?.id, links[0].id);
    },
  );
}

/**
 * The netbox.netbox collection's port, cable, circuit termination, virtual chassis and
 * power modules against the service: Debian's `ansible` runs playbooks/cabling.yml
 * twice; the first run creates everything, the second changes nothing. Skipped (with a message) where ansible-playbook,
 * the collection or pynetbox is missing.
 */
import { fileURLToPath } from 'node:url';

import test from 'ava';

import { ansibleAvailability, runPlaybook } from '../support/ansible.js';
import { startService } from '../support/startService.js';

const CABLING = fileURLToPath(new URL('playbooks/cabling.yml', import.meta.url));

const availability = ansibleAvailability();
if (availability.skipReason !== null) {
  test.skip(`Ansible netbox.netbox cabling playbook (skipped: ${availability.skipReason})`, () => {});
} else {
  test.serial(
    `netbox.netbox ${availability.version}: ports and cables are created on the first run; the second run changes nothing`,
    async (t) => {
      t.timeout(900_000);
      const service = await startService();
      t.teardown(() => service.close());
      const first = await runPlaybook(service, CABLING);
      const failed = (run: typeof first) =>
        run.tasks
          .filter((entry) => entry.failed)
          .map((entry) => `${entry.name}: ${entry.msg}`)
          .join('\n') || run.stderr;
      t.is(first.code, 0, failed(first));
      t.is(first.recap.failures, 0);
      t.true(
        first.tasks.every((entry) => entry.changed),
        first.tasks
          .filter((entry) => !entry.changed)
          .map((entry) => entry.name)
          .join(', '),
      );

      const second = await runPlaybook(service, CABLING);
      t.is(second.code, 0, failed(second));
      t.deepEqual(
        second.tasks.filter((entry) => entry.changed).map((entry) => entry.name),
        [],
      );
      t.is(second.recap.changed, 0);

      const cables = (await service.api('GET', '/api/dcim/cables/?limit=0')).body;
      t.is(cables.count, 1);
      const leaf = (await service.api('GET', '/api/dcim/interfaces/?device=cable-leaf&name=uplink')).body.results[0];
      t.is(leaf.cable.display, 'leaf-spine');
      t.deepEqual(
        leaf.connected_endpoints.map((e: { name: string }) => e.name),
        ['swp1'],
      );
      t.false(leaf.connected_endpoints_reachable, 'the planned cable leaves the path inactive');
      const termination = (await service.api('GET', '/api/circuits/circuit-terminations/?q=CABLE-1')).body.results[0];
      t.like(termination, { term_side: 'A', port_speed: 10000, site: { name: 'Cable DC' } });
      const stack = (await service.api('GET', '/api/dcim/virtual-chassis/?name=cable-stack')).body;
      t.is(stack.count, 1);
      t.is(stack.results[0].master.name, 'cable-leaf');
      t.is(
        (await service.api('GET', '/api/dcim/power-feeds/?name=Cable Feed A')).body.results[0].power_panel.name,
        'Cable PP1',
      );
    },
  );
}

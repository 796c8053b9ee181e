/**
 * The netbox.netbox collection's webhook and export template modules against the service:
 * Debian's `ansible` runs playbooks/webhooks.yml twice; the first run creates both, the
 * second changes nothing. Skipped (with a message) where ansible-playbook, the collection
 * or pynetbox is missing.
 */
import { fileURLToPath } from 'node:url';

import test from 'ava';

import { ansibleAvailability, runPlaybook } from '../support/ansible.js';
import { startService } from '../support/startService.js';

const WEBHOOKS = fileURLToPath(new URL('playbooks/webhooks.yml', import.meta.url));

const availability = ansibleAvailability();
if (availability.skipReason !== null) {
  test.skip(`Ansible netbox.netbox webhook playbook (skipped: ${availability.skipReason})`, () => {});
} else {
  test.serial(
    `netbox.netbox ${availability.version}: a webhook and an export template are created on the first run; the second run changes nothing`,
    async (t) => {
      t.timeout(600_000);
      const service = await startService();
      t.teardown(() => service.close());
      const first = await runPlaybook(service, WEBHOOKS);
      const failed = (run: typeof first) =>
        run.tasks
          .filter((entry) => entry.failed)
          .map((entry) => `${entry.name}: ${entry.msg}`)
          .join('\n') || run.stderr;
      t.is(first.code, 0, failed(first));
      t.true(first.tasks.every((entry) => entry.changed));

      const second = await runPlaybook(service, WEBHOOKS);
      t.is(second.code, 0, failed(second));
      t.deepEqual(
        second.tasks.filter((entry) => entry.changed).map((entry) => entry.name),
        [],
        JSON.stringify(second.tasks.filter((entry) => entry.changed).map((entry) => entry.result.diff)),
      );

      const [webhook] = (await service.api('GET', '/api/extras/webhooks/?name=Device changes')).body.results;
      t.like(webhook, { type_create: true, type_update: true, type_delete: false, secret: 'signing-key' });
      t.deepEqual(webhook.content_types, ['dcim.device', 'dcim.site']);
      await service.api('POST', '/api/dcim/sites/', { name: 'Exported', slug: 'exported' });
      const exported = await service.api('GET', '/api/dcim/sites/?export=Site names');
      t.is(exported.body, 'Exported\n');
    },
  );
}

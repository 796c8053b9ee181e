/**
 * The netbox.netbox collection's journal entry and custom link modules against the
 * service: Debian's `ansible` runs playbooks/extras.yml twice. The custom link is found
 * again on the second run; the journal module only ever adds entries (state new), so it
 * writes a second one. Skipped (with a message) where ansible-playbook, the collection or
 * pynetbox is missing.
 */
import { fileURLToPath } from 'node:url';

import test from 'ava';

import { ansibleAvailability, type PlaybookRun, runPlaybook } from '../support/ansible.js';
import { startService } from '../support/startService.js';

const EXTRAS = fileURLToPath(new URL('playbooks/extras.yml', import.meta.url));

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
  test.skip(`Ansible netbox.netbox journal and custom link playbook (skipped: ${availability.skipReason})`, () => {});
} else {
  test.serial(
    `netbox.netbox ${availability.version}: a custom link is created once; each run adds a journal entry signed by the token's user`,
    async (t) => {
      t.timeout(600_000);
      const service = await startService();
      t.teardown(() => service.close());
      const first = await runPlaybook(service, EXTRAS);
      t.is(first.code, 0, failures(first));
      t.deepEqual(
        first.tasks.filter((entry) => entry.changed).map((entry) => entry.name),
        ['Site', 'Custom link', 'Journal entry'],
      );

      const second = await runPlaybook(service, EXTRAS);
      t.is(second.code, 0, failures(second));
      t.deepEqual(
        second.tasks.filter((entry) => entry.changed).map((entry) => entry.name),
        ['Journal entry'],
      );

      const links = (await service.api('GET', '/api/extras/custom-links/?name=Site dashboard')).body;
      t.is(links.count, 1);
      t.like(links.results[0], {
        content_types: ['dcim.site'],
        link_text: 'Dashboard of {{ object.name }}',
        link_url: 'https://dash.example.com/sites/{{ object.slug }}',
        group_name: 'Monitoring',
        button_class: 'blue',
        new_window: true,
      });
      const site = (await service.api('GET', '/api/dcim/sites/?name=Journal DC')).body.results[0];
      const entries = (
        await service.api(
          'GET',
          `/api/extras/journal-entries/?assigned_object_type=dcim.site&assigned_object_id=${site.id}`,
        )
      ).body;
      t.is(entries.count, 2);
      for (const entry of entries.results) {
        t.like(entry, {
          kind: { value: 'warning' },
          comments: 'Power maintenance on Saturday',
          created_by: 1,
          assigned_object: { id: site.id },
        });
      }
    },
  );
}

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { ok } from '../support/callers.js';
import { EXHAUSTION } from '../support/injectionCorpus.js';
import { startService } from '../support/startService.js';
import { DOOR_ENV } from '../support/webhookDoor.js';
import { Receiver, until } from '../support/webhookReceiver.js';

/**
 * Issue 27's finding 2: a body template that aborted V8 put the service in a crash loop (the
 * worker rendered the same change again at every start). The whole corpus runs through each
 * webhook door in webhookBodyDoor, webhookHeadersDoor, webhookUrlDoor and
 * webhookConditionsDoor (test/support/webhookDoor.ts).
 */
test('a body template that would abort V8 (range(1e9)|length) is one failed delivery, not a crash loop', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'abort-hook-'));
  const receiver = await Receiver.start();
  let service = await startService(DOOR_ENV, dir);
  t.teardown(async () => {
    await service.close();
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const webhook = {
    name: 'huge',
    content_types: ['dcim.site'],
    type_create: true,
    payload_url: `${receiver.url}/huge`,
    body_template: EXHAUSTION['range(1e9)'],
  };
  const { id } = await ok(service.api('POST', '/api/extras/webhooks/', webhook));
  await ok(service.api('POST', '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' }));
  await until(service.webhooks, () => service.webhooks.deliveries(id)[0]?.status === 'failed');
  const [delivery] = service.webhooks.deliveries(id);
  t.is(delivery!.attempts, 1, 'a template that cannot render is not retried');
  t.regex(String(delivery!.last_error), /Range too big/);
  t.is((await fetch(`${service.url}/livez/`)).status, 200);

  await service.close();
  service = await startService(DOOR_ENV, dir);
  t.is((await fetch(`${service.url}/livez/`)).status, 200, 'the service starts again over it');
  t.is((await service.api('DELETE', `/api/extras/webhooks/${id}/`)).status, 204, 'and the webhook can be deleted');
});

import test from 'ava';

import { startService } from '../support/startService.js';
import { Receiver } from '../support/webhookReceiver.js';

test('webhooks fire for changes on main and for the merge, not for writes inside a branch', async (t) => {
  const receiver = await Receiver.start();
  const service = await startService({ WEBHOOK_RETRY_BASE: '0.005', WEBHOOK_RETRY_MAX: '0.02' });
  t.teardown(async () => {
    await service.close();
    await receiver.stop();
  });
  const hook = await service.api('POST', '/api/extras/webhooks/', {
    name: 'sites',
    content_types: ['dcim.site'],
    type_create: true,
    payload_url: `${receiver.url}/hooks`,
  });
  t.is(hook.status, 201);
  const branch = (await service.api('POST', '/api/plugins/branching/branches/', { name: 'hooks' })).body;
  const inBranch = { 'X-NetBox-Branch': branch.schema_id };
  t.is((await service.api('POST', '/api/dcim/sites/', { name: 'In Branch', slug: 'in-branch' }, inBranch)).status, 201);
  t.is((await service.api('POST', '/api/dcim/sites/', { name: 'On Main', slug: 'on-main' })).status, 201);
  // Deliveries follow the log's order: the branch's site, written first, would come first.
  const [first] = await receiver.receivedCount(1);
  t.is(first!.json.data.name, 'On Main');
  const merged = await service.api('POST', `/api/plugins/branching/branches/${branch.id}/merge/`, { commit: true });
  t.is(merged.status, 200);
  const [, second] = await receiver.receivedCount(2);
  t.is(second!.json.data.name, 'In Branch');
  t.is(second!.json.request_id, merged.headers.get('x-request-id'));
  t.is(receiver.received.length, 2);
});

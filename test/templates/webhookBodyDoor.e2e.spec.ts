import test from 'ava';

import { attackWebhookDoor } from '../support/webhookDoor.js';

/** The webhook door `body_template`: rendered by the delivery worker on every matching change. */
test('body_template: the injection corpus and the exhaustion payloads', async (t) => {
  await attackWebhookDoor(t, {
    door: 'body_template',
    hooks: (corpus, exhaustion, receiverUrl) => [
      ...Object.entries(corpus).map(([label, code], i) => ({
        label,
        fields: { payload_url: `${receiverUrl}/body/${i}`, body_template: code },
        exhausts: false,
      })),
      ...Object.entries(exhaustion).map(([label, code], i) => ({
        label,
        fields: { payload_url: `${receiverUrl}/exhaust/${i}`, body_template: code },
        exhausts: true,
      })),
    ],
    failure: /^request not rendered: body_template: /,
  });
});

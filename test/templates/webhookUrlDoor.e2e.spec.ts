import test from 'ava';

import { attackWebhookDoor } from '../support/webhookDoor.js';

/**
 * The webhook door `payload_url`: a Jinja2 template too, rendered on every matching change.
 * NetBox caps it at 500 characters, so the longest payloads are refused when written.
 */
test('payload_url: the injection corpus and the exhaustion payloads', async (t) => {
  await attackWebhookDoor(t, {
    door: 'payload_url',
    hooks: (corpus, exhaustion, receiverUrl) => [
      ...Object.entries(corpus).map(([label, code], i) => ({
        label,
        fields: { payload_url: `${receiverUrl}/url/${i}/${code}` },
        exhausts: false,
      })),
      ...Object.entries(exhaustion).map(([label, code], i) => ({
        label,
        fields: { payload_url: `${receiverUrl}/exhaust/${i}/${code}` },
        exhausts: true,
      })),
    ],
    failure: /^request not rendered: payload_url: /,
  });
});

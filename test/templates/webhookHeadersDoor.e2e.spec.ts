import test from 'ava';

import { attackWebhookDoor } from '../support/webhookDoor.js';

/** The webhook door `additional_headers`: rendered with the body on every matching change. */
test('additional_headers: the injection corpus and the exhaustion payloads', async (t) => {
  await attackWebhookDoor(t, {
    door: 'additional_headers',
    hooks: (corpus, exhaustion, receiverUrl) => [
      ...Object.entries(corpus).map(([label, code], i) => ({
        label,
        fields: { payload_url: `${receiverUrl}/headers/${i}`, additional_headers: `X-Injected: ${code}` },
        exhausts: false,
      })),
      ...Object.entries(exhaustion).map(([label, code], i) => ({
        label,
        fields: { payload_url: `${receiverUrl}/exhaust/${i}`, additional_headers: `X-Exhaust: ${code}` },
        exhausts: true,
      })),
    ],
    failure: /^request not rendered: additional_headers: /,
  });
});

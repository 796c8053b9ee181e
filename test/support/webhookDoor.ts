import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { ExecutionContext } from 'ava';

import { ok } from './callers.js';
import { type CanaryTargets, EXHAUSTION, injectionCorpus } from './injectionCorpus.js';
import { startService, type TestService } from './startService.js';
import { assertLive, Canaries, LEAK, probeLiveness } from './templateDoors.js';
import { Receiver } from './webhookReceiver.js';

/**
 * One webhook door's attack, as issue 27 asks each door be tried: every injection payload
 * and every exhaustion payload stored in that part of a webhook by a user allowed to add
 * webhooks, then a change that matches them all. It asserts that no canary is touched, that
 * `/livez/` answers within the bound while the worker renders, that the payloads that reach
 * a limit are failed deliveries saying why, that a healthy webhook beside them is delivered,
 * and that the service restarted with the poisoned webhooks in place comes up, serves and
 * delivers the next change.
 */

/** Small limits, so the attack's renders reach them quickly. */
export const DOOR_ENV = {
  TEMPLATE_TIMEOUT: '1.5',
  TEMPLATE_MEMORY_MB: '64',
  TEMPLATE_WORKERS: '2',
  WEBHOOK_RETRY_BASE: '0.005',
  WEBHOOK_RETRY_MAX: '0.02',
};

/** A field's value as JSON text, sent as it is (a value too deep for the client's JSON.stringify). */
export class RawJson {
  constructor(readonly text: string) {}
}

export interface PoisonedHook {
  label: string;
  /** The webhook's fields besides its name, content types and events (a RawJson sent as its text). */
  fields: Record<string, unknown>;
  /** An exhaustion payload: a delivery of it must fail at a limit. */
  exhausts: boolean;
}

export interface WebhookDoor {
  /** The part of the webhook under attack, as failures name it (`body_template`, `conditions`...). */
  door: string;
  /** The poisoned webhooks, built from the corpus (injection and exhaustion) for this door. */
  hooks(corpus: Record<string, string>, exhaustion: Record<string, string>, receiverUrl: string): PoisonedHook[];
  /** How a failed delivery of this door's payload begins its `last_error`. */
  failure: RegExp;
  /** Fields of the sites created (the changes the webhooks watch). */
  site?: Record<string, unknown>;
}

export async function attackWebhookDoor(t: ExecutionContext, spec: WebhookDoor): Promise<void> {
  t.timeout(240_000, 'an attack, a restart and a second attack on a shared machine');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'door-'));
  const dataDir = path.join(dir, 'data');
  const canaries = new Canaries(dir);
  const receiver = await Receiver.start();
  let service = await startService(DOOR_ENV, dataDir, { logger: canaries.logger });
  t.teardown(async () => {
    await service.close();
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const targets: CanaryTargets = canaries.targets(service);
  const tokensBefore = await Canaries.tokens(service);

  const healthy = await createHook(service, {
    name: 'healthy',
    payload_url: `${receiver.url}/ok`,
    body_template: '{{ data.name }}',
  });
  const stored: Array<PoisonedHook & { id: number }> = [];
  const refused: string[] = [];
  for (const [i, hook] of spec.hooks(injectionCorpus(targets), EXHAUSTION, receiver.url).entries()) {
    const answer = await service.api(
      'POST',
      '/api/extras/webhooks/',
      bodyText(hookBody({ name: `p${i}`, ...hook.fields })),
    );
    if (answer.status === 201) stored.push({ ...hook, id: answer.body.id });
    else if (answer.status === 400) refused.push(`${hook.label}: ${JSON.stringify(answer.body)}`);
    else t.fail(`${hook.label}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  t.log(`${spec.door}: ${stored.length} poisoned webhooks stored, ${refused.length} refused when written`);
  for (const line of refused) t.log('  refused:', line.slice(0, 160));

  const settled = (worker: TestService['webhooks'], changes: number) => () =>
    worker.deliveries(healthy).filter((d) => d.status === 'delivered').length === changes &&
    stored.every((hook) => {
      const finished = worker.deliveries(hook.id).filter((d) => d.status !== 'pending').length;
      // A payload may also decide that the change does not match (conditions): then nothing is recorded.
      return finished === changes || (spec.door === 'conditions' && !hook.exhausts);
    });

  const attack = async (name: string, changes: number) => {
    const done = settled(service.webhooks, changes);
    // Probed from before the change is written: the worker may judge it before the write is answered.
    let written = false;
    const probing = probeLiveness(service, () => !written || !done());
    await ok(service.api('POST', '/api/dcim/sites/', { name, slug: name.toLowerCase(), ...spec.site }));
    written = true;
    assertLive(t, await probing);
    if (!done()) t.fail(`the deliveries of ${name} were not all settled within the probing time`);
    while (!done()) await service.webhooks.changed();
  };

  await attack('DC-1', 1);
  const exhausting = stored.filter((hook) => hook.exhausts);
  t.true(exhausting.length > 0, 'exhaustion payloads were stored');
  for (const hook of exhausting) {
    const [delivery] = service.webhooks.deliveries(hook.id);
    t.is(delivery?.status, 'failed', `${hook.label}: a failed delivery`);
    t.regex(String(delivery?.last_error), spec.failure, hook.label);
  }
  for (const hook of stored) {
    for (const delivery of service.webhooks.deliveries(hook.id))
      t.notRegex(String(delivery.last_error ?? ''), LEAK, hook.label);
  }
  for (const request of receiver.received) t.notRegex(JSON.stringify(request), LEAK);
  t.deepEqual(
    receiver.received.filter((r) => r.path === '/ok').map((r) => r.body),
    ['DC-1'],
  );
  canaries.assertUntouched(t, tokensBefore, await Canaries.tokens(service));

  // The poisoned webhooks stay; the service starts again over them, serves, and goes on delivering.
  await service.close();
  service = await startService(DOOR_ENV, dataDir, { logger: canaries.logger });
  t.is((await service.api('GET', '/api/status/')).status, 200, 'the restarted service serves');
  t.is((await service.api('GET', '/api/extras/webhooks/?limit=1')).body.count, stored.length + 1);
  await attack('DC-2', 2);
  t.deepEqual(
    receiver.received.filter((r) => r.path === '/ok').map((r) => r.body),
    ['DC-1', 'DC-2'],
  );
  for (const request of receiver.received) t.notRegex(JSON.stringify(request), LEAK);
  canaries.assertUntouched(t, tokensBefore, await Canaries.tokens(service), 'after the restart:');
}

function bodyText(body: Record<string, unknown>): string {
  const raw = new Map<string, string>();
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (!(value instanceof RawJson)) return value;
    const marker = `@raw${raw.size}@`;
    raw.set(JSON.stringify(marker), value.text);
    return marker;
  });
  return [...raw].reduce((json, [marker, value]) => json.replace(marker, value), text);
}

function hookBody(fields: Record<string, unknown>): Record<string, unknown> {
  return { content_types: ['dcim.site'], type_create: true, ...fields };
}

async function createHook(service: TestService, fields: Record<string, unknown>): Promise<number> {
  return (await ok(service.api('POST', '/api/extras/webhooks/', hookBody(fields)))).id;
}

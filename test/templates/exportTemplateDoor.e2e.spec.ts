import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { as, grant, ok, userWithToken } from '../support/callers.js';
import { EXHAUSTION, injectionCorpus } from '../support/injectionCorpus.js';
import { startService, type TestService } from '../support/startService.js';

/**
 * The export-template door: a user who may add export templates and view sites stores
 * templates that any viewer then renders with `?export=`. Whatever the template, the
 * service's host stays out of reach, the answer is a 400 naming the template, and the
 * service keeps answering while a template runs.
 */
const LIMITS = { TEMPLATE_TIMEOUT: '1.5', TEMPLATE_MEMORY_MB: '64', TEMPLATE_WORKERS: '2' };
const CANARY_ENV = 'canary-value-that-no-template-may-read';

async function attacker(service: TestService) {
  const { user, key } = await userWithToken(service, 'templater', { token: { write_enabled: true } });
  await grant(service, { object_types: ['extras.exporttemplate'], actions: ['add', 'view'], users: [user.id] });
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [user.id] });
  return as(service, key);
}

async function withService(t: { teardown: (fn: () => unknown) => void }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'export-door-'));
  const service = await startService({ ...LIMITS, CANARY: CANARY_ENV });
  t.teardown(async () => {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await ok(service.api('POST', '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' }));
  return { service, canary: path.join(dir, 'canary'), api: await attacker(service) };
}

test('every injection payload stored as an export template renders harmlessly or answers 400 naming it; nothing outside is reached', async (t) => {
  const { service, canary, api } = await withService(t);
  let n = 0;
  for (const [label, code] of Object.entries(injectionCorpus(canary))) {
    const name = `t${++n}`;
    await ok(api('POST', '/api/extras/export-templates/', { name, content_types: ['dcim.site'], template_code: code }));
    const answer = await api('GET', `/api/dcim/sites/?export=${name}`);
    t.true(answer.status === 200 || answer.status === 400, `${label}: ${answer.status}`);
    if (answer.status === 400) t.regex(answer.body.detail, new RegExp(`export template \\(${name}\\)`), label);
    t.notRegex(JSON.stringify(answer.body), /ESCAPED|canary-value|\[native code\]/, label);
    t.false(existsSync(canary), `${label}: the canary file is untouched`);
  }
  t.is((await service.api('GET', '/api/status/')).status, 200);
});

test('templates that exhaust time, memory or the stack answer 400 with the limit; the service stays up and answers others meanwhile', async (t) => {
  const { service, api } = await withService(t);
  let n = 0;
  for (const [label, code] of Object.entries(EXHAUSTION)) {
    const name = `x${++n}`;
    await ok(api('POST', '/api/extras/export-templates/', { name, content_types: ['dcim.site'], template_code: code }));
    const answer = await api('GET', `/api/dcim/sites/?export=${name}`);
    t.is(answer.status, 400, label);
    t.regex(
      answer.body.detail,
      new RegExp(`^There was an error rendering the selected export template \\(${name}\\): `),
      label,
    );
    t.log(label, '→', answer.body.detail);
  }
  const slow = await api('GET', '/api/dcim/sites/?export=x2'); // the n² loop, to its time limit
  t.regex(slow.body.detail, /time limit \(1500 ms\).*TEMPLATE_TIMEOUT/);
  t.is((await service.api('GET', '/api/dcim/sites/')).body.count, 1, 'the registry is as it was');
});

test('while an export renders for seconds, /livez/ and ordinary reads are answered before it ends', async (t) => {
  const { service, api } = await withService(t);
  await ok(
    api('POST', '/api/extras/export-templates/', {
      name: 'spin',
      content_types: ['dcim.site'],
      template_code: EXHAUSTION['nested n² loop'],
    }),
  );
  let finished = false;
  const exporting = api('GET', '/api/dcim/sites/?export=spin').finally(() => (finished = true));
  // The render has started once the request reached the pool; then ask around it.
  const latencies: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    t.is((await fetch(`${service.url}/livez/`)).status, 200);
    t.is((await service.api('GET', '/api/dcim/sites/?limit=1')).status, 200);
    latencies.push(Math.round(performance.now() - started));
  }
  t.false(finished, 'ten requests were answered while the template was still running');
  t.log('livez + list latencies during the render (ms):', latencies.join(', '));
  t.is((await exporting).status, 400);
});

test("a bad template is the client's 400 with the template's name and line, not a 500", async (t) => {
  const { api } = await withService(t);
  await ok(
    api('POST', '/api/extras/export-templates/', {
      name: 'broken',
      content_types: ['dcim.site'],
      template_code: 'name\n{% for s in queryset %}{{ s.name }',
    }),
  );
  const answer = await api('GET', '/api/dcim/sites/?export=broken');
  t.is(answer.status, 400);
  t.regex(
    answer.body.detail,
    /^There was an error rendering the selected export template \(broken\): line 2, column \d+: /,
  );
});

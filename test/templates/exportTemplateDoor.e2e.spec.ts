import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { as, grant, ok, userWithToken } from '../support/callers.js';
import { EXHAUSTION, injectionCorpus } from '../support/injectionCorpus.js';
import { startService, type TestService } from '../support/startService.js';
import { assertLive, Canaries, LEAK, probeLiveness } from '../support/templateDoors.js';

/**
 * The export-template door: a user who may add export templates and view sites stores
 * templates that any viewer then renders with `?export=`. Whatever the template, the
 * service's host stays out of reach, the answer is a 400 naming the template, and the
 * service keeps answering while a template runs.
 */
const LIMITS = { TEMPLATE_TIMEOUT: '1.5', TEMPLATE_MEMORY_MB: '64', TEMPLATE_WORKERS: '2' };

async function attacker(service: TestService) {
  const { user, key } = await userWithToken(service, 'templater', { token: { write_enabled: true } });
  await grant(service, { object_types: ['extras.exporttemplate'], actions: ['add', 'view'], users: [user.id] });
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [user.id] });
  return as(service, key);
}

async function withService(t: { teardown: (fn: () => unknown) => void }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'export-door-'));
  const canaries = new Canaries(dir);
  const service = await startService(LIMITS, path.join(dir, 'data'), { logger: canaries.logger });
  t.teardown(async () => {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await ok(service.api('POST', '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' }));
  const api = await attacker(service);
  return { service, canaries, tokens: await Canaries.tokens(service), api };
}

test('every injection payload stored as an export template renders harmlessly or answers 400 naming it; nothing outside is reached', async (t) => {
  const { service, canaries, tokens, api } = await withService(t);
  let n = 0;
  for (const [label, code] of Object.entries(injectionCorpus(canaries.targets(service)))) {
    const name = `t${++n}`;
    await ok(api('POST', '/api/extras/export-templates/', { name, content_types: ['dcim.site'], template_code: code }));
    const answer = await api('GET', `/api/dcim/sites/?export=${name}`);
    t.true(answer.status === 200 || answer.status === 400, `${label}: ${answer.status}`);
    if (answer.status === 400) t.regex(answer.body.detail, new RegExp(`export template \\(${name}\\)`), label);
    t.notRegex(JSON.stringify(answer.body), LEAK, label);
  }
  canaries.assertUntouched(t, tokens, await Canaries.tokens(service));
  t.is((await service.api('GET', '/api/status/')).status, 200);
});

test('templates that exhaust time, memory or the stack answer 400 with the limit; /livez/ answers within the bound meanwhile', async (t) => {
  const { service, canaries, tokens, api } = await withService(t);
  const names = Object.keys(EXHAUSTION).map((_, i) => `x${i + 1}`);
  for (const [i, code] of Object.values(EXHAUSTION).entries())
    await ok(
      api('POST', '/api/extras/export-templates/', {
        name: names[i],
        content_types: ['dcim.site'],
        template_code: code,
      }),
    );
  // Every exhaustion export at once (two renderers: they queue), probed while any is unanswered.
  let unanswered = names.length;
  const answers = Promise.all(
    names.map((name) => api('GET', `/api/dcim/sites/?export=${name}`).finally(() => (unanswered -= 1))),
  );
  assertLive(t, await probeLiveness(service, () => unanswered > 0));
  for (const [i, answer] of (await answers).entries()) {
    const label = Object.keys(EXHAUSTION)[i]!;
    t.is(answer.status, 400, label);
    t.regex(
      answer.body.detail,
      new RegExp(`^There was an error rendering the selected export template \\(${names[i]}\\): `),
      label,
    );
    t.log(label, '→', answer.body.detail);
  }
  const slow = await api('GET', '/api/dcim/sites/?export=x2'); // the n² loop, to its time limit
  t.regex(slow.body.detail, /time limit \(1500 ms\).*TEMPLATE_TIMEOUT/);
  t.is((await service.api('GET', '/api/dcim/sites/')).body.count, 1, 'the registry is as it was');
  canaries.assertUntouched(t, tokens, await Canaries.tokens(service));
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

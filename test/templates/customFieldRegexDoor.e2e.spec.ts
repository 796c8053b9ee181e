import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { as, grant, ok, userWithToken } from '../support/callers.js';
import { startService, type TestService } from '../support/startService.js';
import { assertLive, probeLiveness } from '../support/templateDoors.js';

/**
 * The custom-field door: a user allowed to add custom fields writes a validation_regex
 * that every later write of a value to that field is matched against. RE2 is linear in the
 * value, but also in the pattern's program, so the service refuses programs past its limit
 * when the pattern is written, and matches a costly value off the event loop: a check that
 * reaches TEMPLATE_TIMEOUT is a 400 naming it, nothing is written, and /livez/ answers
 * meanwhile.
 */
const LIMITS = { TEMPLATE_TIMEOUT: '1.5', TEMPLATE_MEMORY_MB: '64' };

// 5,005 instructions: refused. 856: accepted, and against 200,000 random a's and b's (which
// defeat RE2's DFA: its NFA then works through the program at each character) seconds long.
const REFUSED = '.*(?:a|b|aa|ab){1,1000}[cd]';
const ACCEPTED_BUT_COSTLY = '.*a.{100}(?:a|b|aa|ab){1,150}[cd]';
const LONG_VALUE = seededAB(200_000);
// A value it matches.
const MATCHING = `a${'b'.repeat(101)}c`;

/** n characters a or b, the same at every run. */
function seededAB(n: number): string {
  let x = 1;
  let text = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    text += x < 2 ** 30 ? 'a' : 'b';
  }
  return text;
}

async function attacker(service: TestService) {
  const { user, key } = await userWithToken(service, 'fielder', { token: { write_enabled: true } });
  await grant(service, { object_types: ['extras.customfield'], actions: ['add', 'view'], users: [user.id] });
  await grant(service, { object_types: ['dcim.site'], actions: ['add', 'change', 'view'], users: [user.id] });
  return as(service, key);
}

test('validation_regex: a large program is refused; a costly check is a 400 at the time limit while /livez/ answers; a restart serves', async (t) => {
  t.timeout(240_000, 'two services and a check to its time limit on a shared machine');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'custom-field-door-'));
  let service = await startService(LIMITS, path.join(dir, 'data'));
  t.teardown(async () => {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const api = await attacker(service);
  const field = (name: string, validation_regex: string) =>
    api('POST', '/api/extras/custom-fields/', {
      name,
      type: 'longtext',
      content_types: ['dcim.site'],
      validation_regex,
    });

  const refused = await field('refused', REFUSED);
  t.is(refused.status, 400);
  t.deepEqual(Object.keys(refused.body), ['validation_regex']);
  t.regex(
    refused.body.validation_regex[0],
    /compiles to a program of 5\d{3} instructions, more than the limit of 1000/,
  );
  await ok(field('costly', ACCEPTED_BUT_COSTLY));
  await ok(field('code', '^[A-Z]{3}-\\d+$'));

  // An ordinary value is matched as NetBox does, inline.
  const site = await ok(
    api('POST', '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1', custom_fields: { code: 'ABC-1', costly: MATCHING } }),
  );
  const wrong = await api('PATCH', `/api/dcim/sites/${site.id}/`, { custom_fields: { code: 'abc-1' } });
  t.deepEqual(wrong.body, {
    __all__: ["Invalid value for custom field 'code': Value must match regex '^[A-Z]{3}-\\d+$'"],
  });

  // The costly check, probed from before it is sent until it is answered.
  let answered = false;
  const attack = api('POST', '/api/dcim/sites/', {
    name: 'DC-2',
    slug: 'dc-2',
    custom_fields: { costly: LONG_VALUE },
  }).finally(() => (answered = true));
  assertLive(t, await probeLiveness(service, () => !answered));
  const answer = await attack;
  t.is(answer.status, 400);
  t.deepEqual(answer.body, {
    __all__: [
      `Invalid value for custom field 'costly': The value could not be checked against regex '${ACCEPTED_BUT_COSTLY}': ` +
        'the check ran past its time limit (1500 ms) ' +
        '(the limit is set by the service: see TEMPLATE_TIMEOUT and TEMPLATE_MEMORY_MB)',
    ],
  });
  t.is((await service.api('GET', '/api/dcim/sites/')).body.count, 1, 'nothing was written');

  // Stored patterns are matched on writes only: a restart reads them and serves at once.
  await service.close();
  service = await startService(LIMITS, path.join(dir, 'data'));
  t.is((await service.api('GET', '/api/dcim/sites/')).body.count, 1, 'the restarted service serves');
  const again = await service.api('POST', '/api/dcim/sites/', {
    name: 'DC-3',
    slug: 'dc-3',
    custom_fields: { costly: LONG_VALUE },
  });
  t.is(again.status, 400);
  t.regex(again.body.__all__[0], /ran past its time limit \(1500 ms\)/);
  await ok(
    service.api('POST', '/api/dcim/sites/', {
      name: 'DC-3',
      slug: 'dc-3',
      custom_fields: { code: 'XYZ-9', costly: MATCHING },
    }),
  );
});

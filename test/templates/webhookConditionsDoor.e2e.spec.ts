import test from 'ava';

import { attackWebhookDoor, type PoisonedHook, RawJson } from '../support/webhookDoor.js';

/**
 * The webhook door `conditions`: rule sets anyone allowed to add webhooks writes, evaluated
 * on every matching change against values any writer controls (here a site's comments).
 * They are data, not templates: the injection corpus is tried as the paths and values a
 * rule reads (to reach a prototype or be run), and as patterns; the exhaustion payloads are
 * rule sets nested past the stack, rule sets of thousands of rules, and regex conditions
 * whose RE2 program is large (linear in the input, times thousands of instructions).
 */
// Long enough that the large programs below take several times TEMPLATE_TIMEOUT (1.5 s) on a quiet
// machine too: against 20,000 characters one took 1.6-1.9 s, and sometimes finished in time.
const LONG_COMMENTS = `${'a'.repeat(80_000)}e`;

function conditionHooks(corpus: Record<string, string>, receiverUrl: string): PoisonedHook[] {
  const hooks: PoisonedHook[] = [];
  const hook = (label: string, conditions: unknown, exhausts = false) =>
    hooks.push({ label, fields: { payload_url: `${receiverUrl}/c/${hooks.length}`, conditions }, exhausts });
  for (const attr of ['constructor', '__proto__', '__proto__.constructor', 'constructor.constructor', 'toString'])
    hook(`path ${attr}`, { and: [{ attr, value: null }] });
  hook('a prototype as a container', { and: [{ attr: '__proto__', op: 'contains', value: 'toString' }] });
  hook('an object with its own toString as a value', { and: [{ attr: 'name', value: { toString: 'x' } }] });
  for (const [label, code] of Object.entries(corpus)) {
    hook(`${label} as a value`, { and: [{ attr: 'name', op: 'contains', value: code }] });
    hook(`${label} as a pattern`, { and: [{ attr: 'name', op: 'regex', value: code }] });
  }
  for (const pattern of ['(a)\\1', '(?=a)a', '(?<=a)b', 'a++', '(a+)+$', '(a|aa)+$', '(.*a){20}$'])
    hook(`pattern ${pattern}`, { and: [{ attr: 'comments', op: 'regex', value: pattern }] });
  const depth = 100_000;
  const deep = `${'{"and":['.repeat(depth)}{"attr":"name","value":"DC-1"}${']}'.repeat(depth)}`;
  hook('a rule set nested 100,000 deep', new RawJson(deep));
  hook('a rule set of 20,000 rules', { or: Array.from({ length: 20_000 }, () => ({ attr: 'comments', value: 'x' })) });
  hook('a pattern of 10,000 characters', {
    and: [{ attr: 'name', op: 'regex', value: '(?:[a-z]{1000})'.repeat(700) }],
  });
  for (const slow of ['.*(?:a|b|aa|ab){1,1000}[cd]', '.*(?:a|b|aa|ba){1,1000}[cd]'])
    hook(`large program ${slow}`, { and: [{ attr: 'comments', op: 'regex', value: slow }] }, true);
  hook(
    'large programs, negated, among others',
    {
      or: [
        { attr: 'name', value: 'x' },
        { attr: 'comments', op: 'regex', value: '.*(?:a|b|aa|ab){1,1000}[cd]', negate: true },
      ],
    },
    true,
  );
  return hooks;
}

test('conditions: the injection corpus and the exhaustion payloads', async (t) => {
  await attackWebhookDoor(t, {
    door: 'conditions',
    hooks: (corpus, _exhaustion, receiverUrl) => conditionHooks(corpus, receiverUrl),
    failure: /^conditions not evaluated: ran past its time limit \(1500 ms\)/,
    site: { comments: LONG_COMMENTS },
  });
});

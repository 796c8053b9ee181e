import test from 'ava';

import { IsolatedConditions } from '../../src/webhooks/ConditionsEvaluator.js';

/**
 * Webhook conditions run in a process of their own: a rule set that takes long is stopped at
 * the time limit and fails alone, the others of the same change are judged, and the
 * service's event loop turns meanwhile.
 */
const conditions = new IsolatedConditions({ timeoutMs: 500, memoryMb: 64 });
test.after.always(() => conditions.close());

// RE2 matches in linear time, but linear in the input times the pattern's program: this
// pattern (28 characters, thousands of instructions) took 2.9 s against 10,000 characters
// and 14.5 s against 50,000 on the event loop (before conditions moved off it).
const SLOW = { and: [{ attr: 'comments', op: 'regex', value: '.*(?:a|b|aa|ab){1,1000}[cd]' }] };
const data = { name: 'DC-1', comments: `${'a'.repeat(20_000)}e` };

test('verdicts as inline: met, unmet, malformed (stored before a check refused it), nested too deep', async (t) => {
  let deep: Record<string, unknown> = { attr: 'name', value: 'DC-1' };
  for (let i = 0; i < 1_000; i++) deep = { and: [deep] };
  const verdicts = await conditions.verdicts(
    [{ and: [{ attr: 'name', value: 'DC-1' }] }, { and: [{ attr: 'name', value: 'x' }] }, { xor: [] }, deep],
    data,
  );
  t.deepEqual(verdicts.slice(0, 3), [
    { met: true },
    { met: false },
    { invalid: "Invalid logic type: xor (must be 'and' or 'or')" },
  ]);
  t.deepEqual(verdicts[3], { invalid: 'Rule sets may be nested at most 64 levels deep.' });
});

test('a rule set past the time limit fails alone; the event loop turns while it runs', async (t) => {
  let finished = false;
  const judging = conditions
    .verdicts([{ and: [{ attr: 'name', value: 'DC-1' }] }, SLOW, { and: [{ attr: 'name', value: 'x' }] }], data)
    .finally(() => (finished = true));
  let turns = 0;
  while (!finished && turns < 5) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    turns += 1;
  }
  t.is(turns, 5, 'five timer turns passed while the conditions were still being evaluated');
  const verdicts = await judging;
  t.deepEqual(verdicts[0], { met: true });
  t.regex((verdicts[1] as { failed: string }).failed, /time limit \(500 ms\)/);
  t.deepEqual(verdicts[2], { met: false });
  t.deepEqual(await conditions.verdicts([{ and: [{ attr: 'name', value: 'DC-1' }] }], data), [{ met: true }]);
});

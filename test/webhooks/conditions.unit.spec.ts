import test from 'ava';

import { conditionsMet, InvalidConditions, parseRuleSet } from '../../src/models/extras/webhookConditions.js';

const site = {
  name: 'DC-1',
  status: { value: 'active', label: 'Active' },
  tenant: null,
  asns: [65000, 65001],
  tags: [{ name: 'edge' }],
  custom_fields: { weight: 12 },
};

test('a condition compares the value at a dotted path of the API form (eq is the default operator)', (t) => {
  t.true(conditionsMet({ and: [{ attr: 'status.value', value: 'active' }] }, site));
  t.false(conditionsMet({ and: [{ attr: 'status.value', value: 'planned' }] }, site));
  t.true(conditionsMet({ and: [{ attr: 'tenant', value: null }] }, site));
  t.true(
    conditionsMet({ and: [{ attr: 'missing.deeper', value: null }] }, site),
    'a path through nothing reads as null',
  );
});

test('operators: numbers, membership, contains, regex (anchored at the start, as re.match), negate', (t) => {
  t.true(conditionsMet({ and: [{ attr: 'custom_fields.weight', op: 'gt', value: 10 }] }, site));
  t.false(conditionsMet({ and: [{ attr: 'custom_fields.weight', op: 'lte', value: 11.5 }] }, site));
  t.true(conditionsMet({ and: [{ attr: 'name', op: 'contains', value: 'DC' }] }, site));
  t.true(conditionsMet({ and: [{ attr: 'asns', op: 'contains', value: 65001 }] }, site));
  t.true(conditionsMet({ and: [{ attr: 'status.value', op: 'in', value: ['active', 'staged'] }] }, site));
  t.true(conditionsMet({ and: [{ attr: 'name', op: 'regex', value: 'DC-\\d' }] }, site));
  t.false(conditionsMet({ and: [{ attr: 'name', op: 'regex', value: '\\d' }] }, site), 'not found at the start');
  t.true(conditionsMet({ and: [{ attr: 'name', value: 'DC-2', negate: true }] }, site));
  t.false(
    conditionsMet({ and: [{ attr: 'tenant', op: 'gt', value: 1 }] }, site),
    'comparing null with a number is false, not an error',
  );
});

test('and/or nest; an empty rule set lets everything through', (t) => {
  const nested = {
    or: [
      { attr: 'name', value: 'other' },
      {
        and: [
          { attr: 'status.value', value: 'active' },
          { attr: 'custom_fields.weight', op: 'gte', value: 12 },
        ],
      },
    ],
  };
  t.true(conditionsMet(nested, site));
  t.false(
    conditionsMet(
      {
        and: [
          { attr: 'name', value: 'DC-1' },
          { attr: 'name', value: 'x' },
        ],
      },
      site,
    ),
  );
  t.true(conditionsMet(null, site));
  t.true(conditionsMet({}, site));
});

test("malformed rule sets are refused with NetBox's reasons", (t) => {
  const reason = (value: unknown) => t.throws(() => parseRuleSet(value), { instanceOf: InvalidConditions })?.message;
  t.is(reason([]), "Ruleset must be a dictionary, not <class 'list'>.");
  t.is(reason({ and: [], or: [] }), 'Ruleset must have exactly one logical operator (found 2)');
  t.is(reason({ xor: [] }), "Invalid logic type: xor (must be 'and' or 'or')");
  t.is(
    reason({ and: [{ attr: 'a', value: 1, op: 'like' }] }),
    'Unknown operator: like. Must be one of: eq, gt, gte, lt, lte, in, contains, regex',
  );
  t.is(reason({ and: [{ attr: 'a', value: 'x', op: 'gt' }] }), "Invalid type for gt operation: <class 'str'>");
  t.is(
    reason({ and: [{ attr: 'a', value: null, op: 'contains' }] }),
    "Invalid type for contains operation: <class 'NoneType'>",
  );
  t.is(reason({ and: [{ attr: 'a', value: { x: 1 } }] }), "Unsupported value type: <class 'dict'>");
});

test('a regex condition runs in linear time; a pattern RE2 cannot take is refused with the reason', (t) => {
  const long = { name: `${'a'.repeat(32)}!` };
  t.false(conditionsMet({ and: [{ attr: 'name', op: 'regex', value: '(a+)+$' }] }, long));
  t.true(conditionsMet({ and: [{ attr: 'name', op: 'regex', value: '(a+)+$', negate: true }] }, long));
  const refused = t.throws(() => parseRuleSet({ and: [{ attr: 'name', op: 'regex', value: '(a)\\1' }] }), {
    instanceOf: InvalidConditions,
  });
  t.regex(refused?.message ?? '', /^\(a\)\\1 is not supported: only regular expressions that match in linear time/);
});

test('only the object’s own keys are read: constructor, __proto__ and toString name nothing, as in NetBox', (t) => {
  for (const attr of ['constructor', '__proto__', 'toString', '__proto__.constructor', 'name.constructor'])
    t.true(conditionsMet({ and: [{ attr, value: null }] }, site), attr);
  t.false(conditionsMet({ and: [{ attr: '__proto__', op: 'contains', value: 'toString' }] }, site));
});

test('beyond NetBox: rule sets nested past 64 levels and regex patterns past 500 characters are refused', (t) => {
  let deep: Record<string, unknown> = { attr: 'name', value: 'x' };
  for (let i = 0; i < 100_000; i++) deep = { and: [deep] };
  const nested = t.throws(() => parseRuleSet(deep), { instanceOf: InvalidConditions });
  t.is(nested?.message, 'Rule sets may be nested at most 64 levels deep.');
  let ok: Record<string, unknown> = { attr: 'name', value: 'DC-1' };
  for (let i = 0; i < 63; i++) ok = { and: [ok] };
  t.true(conditionsMet(ok, site), '64 levels are taken');
  const long = t.throws(() => parseRuleSet({ and: [{ attr: 'name', op: 'regex', value: 'a'.repeat(501) }] }), {
    instanceOf: InvalidConditions,
  });
  t.is(long?.message, 'A regex pattern may be at most 500 characters long.');
});

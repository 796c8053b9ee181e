import test from 'ava';

import { ValidationError } from '../../src/errors/requestErrors.js';
import { BoundedPatternChecker } from '../../src/models/values/patternChecks.js';
import { knownProgramSize } from '../../src/models/values/storedPattern.js';
import { create, createMany, deciderSpec, objectCreated } from '../support/deciderSpec.js';

/**
 * Custom fields' validation_regex under the house rule that a user-written pattern never
 * holds the event loop: patterns whose RE2 program is too large are refused when written,
 * cheap checks run inline, costly ones off the event loop within TEMPLATE_TIMEOUT, and one
 * that reaches it refuses the write naming the limit.
 */

// 28 characters, 5,000 instructions: 2.9 s against 10,000 characters on the event loop.
const HEAVY = '.*(?:a|b|aa|ab){1,1000}[cd]';

// A short limit, so that the check stopped at it is quick to reach.
const shortLimit = new BoundedPatternChecker({ timeoutMs: 200, memoryMb: 64 });
test.after.always(() => shortLimit.close());

function textField(name: string, validation_regex: string, extra: Record<string, unknown> = {}) {
  return create('extras.customfield', { content_types: ['dcim.site'], type: 'text', name, validation_regex, ...extra });
}

/** A custom field as stored before patterns were bounded (written to the log by an earlier version). */
function storedBeforeTheLimit(name: string, validation_regex: string) {
  return objectCreated('extras.customfield', 1, {
    id: 1,
    name,
    label: '',
    group_name: '',
    description: '',
    type: 'text',
    object_type: null,
    content_types: ['dcim.site'],
    required: false,
    search_weight: 1000,
    filter_logic: 'loose',
    ui_visibility: 'read-write',
    default: null,
    weight: 100,
    validation_minimum: null,
    validation_maximum: null,
    validation_regex,
    choices: null,
  });
}

test('a pattern whose program is too large is refused when written, with its size and the limit', async (t) => {
  const error = await deciderSpec(t).when(textField('code', HEAVY)).thenThrows(ValidationError);
  const body = (error as ValidationError).body as Record<string, string[]>;
  const [message] = body.validation_regex ?? [];
  t.regex(message ?? '', /compiles to a program of \d{4} instructions, more than the limit of 1000/);
  t.deepEqual(Object.keys(body), ['validation_regex']);
});

test('a pattern this process has not compiled is compiled off the event loop when written', async (t) => {
  // 10,000 instructions: about 50 ms of compiling; 500 characters can reach 100,000 (half a second).
  const pattern = `.*${'(?:a|b|aa|ab){1,1000}'.repeat(2)}[ce]`;
  const error = await deciderSpec(t, { patterns: shortLimit })
    .when(textField('code', pattern))
    .thenThrows(ValidationError);
  t.regex(
    ((error as ValidationError).body as Record<string, string[]>).validation_regex?.[0] ?? '',
    /compiles to a program of 1\d{4} instructions, more than the limit of 1000/,
  );
  t.is(knownProgramSize(pattern), null, 'never compiled by the deciding process');
});

test('ordinary NetBox patterns are accepted', async (t) => {
  for (const pattern of [
    '^[A-Z]{3}-\\d+$',
    '^https?://',
    '^(core|edge|access|distribution)$',
    '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$',
    '^\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}$',
    '^[a-z0-9-]{1,63}(\\.[a-z0-9-]{1,63})*$',
  ]) {
    await deciderSpec(t)
      .when(textField('code', pattern))
      .then([{ objectType: 'extras.customfield', postchange: { validation_regex: pattern } }]);
  }
});

test('values are checked against an ordinary pattern as NetBox does (re.match: anchored at the start)', async (t) => {
  const given = [textField('code', '^[A-Z]{3}-\\d+'), textField('scheme', 'https?://')];
  await deciderSpec(t)
    .given(given)
    .when(
      create('dcim.site', { name: 'DC-1', slug: 'dc-1', custom_fields: { code: 'ABC-12 east', scheme: 'http://x' } }),
    )
    .then([{ objectType: 'dcim.site', postchange: { custom_fields: { code: 'ABC-12 east', scheme: 'http://x' } } }]);
  await deciderSpec(t)
    .given(given)
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', custom_fields: { code: 'abc-12', scheme: 'ftp://x' } }))
    .thenThrows(ValidationError, {
      __all__: [
        "Invalid value for custom field 'code': Value must match regex '^[A-Z]{3}-\\d+'",
        "Invalid value for custom field 'scheme': Value must match regex 'https?://'",
      ],
    });
});

test('a long value checked off the event loop gets the same verdicts', async (t) => {
  // 20,000 characters × the pattern's program: past the inline budget, so the check runs in the pattern process.
  const long = `ABC-${'1'.repeat(20_000)}`;
  const given = textField('code', '^[A-Z]{3}-\\d+$');
  await deciderSpec(t, { patterns: shortLimit })
    .given(given)
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', custom_fields: { code: long } }))
    .then([{ objectType: 'dcim.site', postchange: { custom_fields: { code: long } } }]);
  await deciderSpec(t, { patterns: shortLimit })
    .given(given)
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', custom_fields: { code: `${long}x` } }))
    .thenThrows(ValidationError, {
      __all__: ["Invalid value for custom field 'code': Value must match regex '^[A-Z]{3}-\\d+$'"],
    });
});

test('a value whose check against a heavy stored pattern reaches the time limit is refused naming it, nothing written', async (t) => {
  await deciderSpec(t, { patterns: shortLimit })
    .given(storedBeforeTheLimit('code', HEAVY))
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', custom_fields: { code: 'ab'.repeat(50_000) } }))
    .thenThrows(ValidationError, {
      __all__: [
        `Invalid value for custom field 'code': The value could not be checked against regex '${HEAVY}': ` +
          'the check ran past its time limit (200 ms) ' +
          '(the limit is set by the service: see TEMPLATE_TIMEOUT and TEMPLATE_MEMORY_MB)',
      ],
    });
});

test('a heavy stored pattern still checks short values, and a bulk write checks each item', async (t) => {
  await deciderSpec(t, { patterns: shortLimit })
    .given(storedBeforeTheLimit('code', HEAVY))
    .when(
      createMany('dcim.site', [
        { name: 'DC-1', slug: 'dc-1', custom_fields: { code: 'abac' } },
        { name: 'DC-2', slug: 'dc-2', custom_fields: { code: 'xd' } },
      ]),
    )
    .thenThrows(ValidationError, [
      {},
      { __all__: [`Invalid value for custom field 'code': Value must match regex '${HEAVY}'`] },
    ]);
});

test("a custom field's default is checked against its pattern, and not against a refused one", async (t) => {
  await deciderSpec(t)
    .when(textField('code', '^[A-Z]{3}$', { default: 'abcd' }))
    .thenThrows(ValidationError, {
      default: ['Invalid default value "abcd": Value must match regex \'^[A-Z]{3}$\''],
    });
  const error = await deciderSpec(t)
    .when(textField('code', HEAVY, { default: 'ab'.repeat(50_000) }))
    .thenThrows(ValidationError);
  t.deepEqual(Object.keys((error as ValidationError).body), ['validation_regex']);
});

test('a bulk write checks its long values together; after one check reaches the limit no other is made', async (t) => {
  const long = `ABC-${'1'.repeat(20_000)}`;
  await deciderSpec(t, { patterns: shortLimit })
    .given(textField('code', '^[A-Z]{3}-\\d+$'))
    .when(
      createMany('dcim.site', [
        { name: 'DC-1', slug: 'dc-1', custom_fields: { code: long } },
        { name: 'DC-2', slug: 'dc-2', custom_fields: { code: `${long}x` } },
        { name: 'DC-3', slug: 'dc-3', custom_fields: { code: 'ABC-3' } },
      ]),
    )
    .thenThrows(ValidationError, [
      {},
      { __all__: ["Invalid value for custom field 'code': Value must match regex '^[A-Z]{3}-\\d+$'"] },
      {},
    ]);
  const limit = '(the limit is set by the service: see TEMPLATE_TIMEOUT and TEMPLATE_MEMORY_MB)';
  const heavy = (n: number) => ({ name: `DC-${n}`, slug: `dc-${n}`, custom_fields: { code: 'ab'.repeat(50_000) + n } });
  await deciderSpec(t, { patterns: shortLimit })
    .given(storedBeforeTheLimit('code', HEAVY))
    .when(createMany('dcim.site', [heavy(1), heavy(2), heavy(3)]))
    .thenThrows(ValidationError, [
      {
        __all__: [
          `Invalid value for custom field 'code': The value could not be checked against regex '${HEAVY}': ` +
            `the check ran past its time limit (200 ms) ${limit}`,
        ],
      },
      ...[2, 3].map(() => ({
        __all__: [
          `Invalid value for custom field 'code': The value could not be checked against regex '${HEAVY}': ` +
            `the check was not made, as another of the same request ran past its time limit (200 ms) ${limit}`,
        ],
      })),
    ]);
});

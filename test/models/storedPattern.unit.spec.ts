import test from 'ava';

import { customFieldValueProblem } from '../../src/models/customFields/customFieldValues.js';
import { sharedPatternChecker } from '../../src/models/values/patternChecks.js';
import {
  matchesAtStart,
  MAX_PROGRAM_SIZE,
  programSize,
  programSizeProblem,
  storedPatternProblem,
} from '../../src/models/values/storedPattern.js';

test('a catastrophic pattern for a backtracking engine is decided at once (RE2 runs it)', (t) => {
  // RegExp took 9 s on 30 characters here, doubling with each one more (ava times out).
  const value = `${'a'.repeat(32)}!`;
  t.false(matchesAtStart('(a+)+$', value));
  t.true(matchesAtStart('(a+)+$', 'a'.repeat(60)));
  t.false(matchesAtStart('(x+x+)+y', 'x'.repeat(5_000)));
});

test("the match is Python's re.match: anchored at the start only; Python's syntax for ordinary patterns", (t) => {
  t.true(matchesAtStart('DC-\\d', 'DC-1 east'));
  t.false(matchesAtStart('\\d', 'DC-1'));
  t.true(matchesAtStart('a|b', 'bx'), 'an alternation is anchored as a whole');
  t.true(matchesAtStart('(?P<site>DC)-\\d', 'DC-1'), 'a named group in Python syntax');
  t.true(matchesAtStart('(?i)dc', 'DC-1'), 'an inline flag');
});

test('a pattern that cannot match in linear time is refused with the reason; an invalid one as invalid', (t) => {
  t.is(storedPatternProblem('^[A-Z]{3}$'), null);
  t.is(storedPatternProblem('(a+)+$'), null);
  t.regex(storedPatternProblem('(a)\\1') ?? '', /^\(a\)\\1 is not supported: .*linear time.*\\1/);
  t.regex(storedPatternProblem('a(?=b)') ?? '', /is not supported: .*lookarounds/);
  t.is(storedPatternProblem('a)(b'), 'a)(b is not a valid regular expression.');
  t.false(matchesAtStart('(a)\\1', 'aa'), 'a refused pattern stored earlier matches nothing');
});

test("a custom field's validation_regex is checked by the linear engine, anchored at the start", async (t) => {
  const field = { id: 1, type: 'text', validation_regex: '(a+)+$' };
  const problem = (f: typeof field, value: string) => customFieldValueProblem(f, value, sharedPatternChecker());
  t.is(await problem(field, `${'a'.repeat(32)}!`), "Value must match regex '(a+)+$'");
  t.is(await problem(field, 'aaa'), null);
  t.is(
    await problem({ id: 2, type: 'text', validation_regex: '[A-Z]{3}' }, 'xABC'),
    "Value must match regex '[A-Z]{3}'",
  );
});

test('program sizes: ordinary patterns are tens of instructions; counted repeats multiply them, past the limit', (t) => {
  t.true(programSize('^[A-Z]{3}-\\d+$') < 20);
  t.true(programSize('^(core|edge|access|distribution)$') < 50);
  t.is(programSizeProblem('^[a-z0-9-]{1,63}(\\.[a-z0-9-]{1,63})*$'), null);
  t.true(programSize('.*(?:a|b|aa|ab){1,1000}[cd]') > 5 * MAX_PROGRAM_SIZE);
  t.regex(
    programSizeProblem('(?:a|b){1,600}') ?? '',
    /^\(\?:a\|b\)\{1,600\} compiles to a program of \d+ instructions, more than the limit of 1000/,
  );
});

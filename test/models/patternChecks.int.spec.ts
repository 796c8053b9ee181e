import test from 'ava';

import { BoundedPatternChecker, INLINE_BUDGET } from '../../src/models/values/patternChecks.js';
import { programSize } from '../../src/models/values/storedPattern.js';

/**
 * Which checks run inline and which in the pattern process: a closed checker still answers
 * the ones it makes inline, and refuses the others (its process is gone).
 */
test('a check within the inline budget is made on the calling thread; one past it, or of a pattern never compiled here, is not', async (t) => {
  const closed = new BoundedPatternChecker({ timeoutMs: 1_000, memoryMb: 64 });
  await closed.close();
  const pattern = '^[A-Z]{3}-\\d+$';
  const size = programSize(pattern); // compiled here: its size is known
  const fits = 'ABC-1'.padEnd(Math.floor(INLINE_BUDGET / size), '1');
  t.deepEqual(
    await closed.matchAll([
      { pattern, value: fits },
      { pattern, value: `x${fits.slice(1)}` },
    ]),
    [true, false],
  );
  await t.throwsAsync(closed.matchAll([{ pattern, value: `${fits}1` }]), { message: /closed/ });
  await t.throwsAsync(closed.matchAll([{ pattern: '^[a-z]{3}-\\d+$', value: 'abc-1' }]), { message: /closed/ });
});

test('a pattern first met in the process is then checked inline when small, and its problems are answered there', async (t) => {
  const checker = new BoundedPatternChecker({ timeoutMs: 5_000, memoryMb: 64 });
  t.teardown(() => checker.close());
  const pattern = '^[a-z]{2}-\\d+$';
  t.deepEqual(await checker.matchAll([{ pattern, value: 'ab-1' }]), [true]);
  t.is(await checker.patternProblem(pattern), null);
  t.regex((await checker.patternProblem('a)(b')) ?? '', /is not a valid regular expression/);
  await checker.close();
  t.deepEqual(
    await checker.matchAll([
      { pattern, value: 'xy-2' },
      { pattern, value: 'x' },
    ]),
    [true, false],
  );
});

/**
 * The cost model of stored regular expressions (custom fields' validation_regex, webhook
 * regex conditions) on re2js: compile time and program size (RE2JS.programSize(), the
 * number of instructions of the compiled program) against the time a match takes per
 * character of the value, for ordinary patterns and for ones built to defeat the DFA
 * (which then falls back to the NFA, whose work per character grows with the program).
 * Each pattern is matched anchored at the start (as storedPattern.ts does) against a value
 * it does not match at its end, so the whole value is read.
 *
 *   npx tsx bench/regexCost.bench.ts        (or: npm run bench -- regexCost)
 *
 * Env: CHARS (10000): the value's length. Prints per pattern: program size, compile ms,
 * ms per match (the best of 3, after one warm-up), ns per character, and ns per character
 * per instruction (the constant the validation budget is set from).
 */
import { performance } from 'node:perf_hooks';

import { RE2JS } from 're2js';

const CHARS = Number(process.env.CHARS ?? 10_000);

const PATTERNS: Array<[string, string]> = [
  ['^[A-Z]{3}-\\d+$', 'A'.repeat(CHARS)],
  ['^https?://', 'h'.repeat(CHARS)],
  ['^(?:core|edge|access|distribution)$', 'core'.repeat(CHARS / 4)],
  ['^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$', 'a'.repeat(CHARS)],
  ['(?i)^[a-z]{2}\\d{2}-[a-z]+-\\d{1,4}$', 'ab12-'.repeat(CHARS / 5)],
  ['.*a.{20}$', 'ab'.repeat(CHARS / 2) + 'x'],
  ['.*a.{100}$', 'ab'.repeat(CHARS / 2) + 'x'],
  ['.*(?:a|b|aa|ab){1,10}[cd]', 'ab'.repeat(CHARS / 2)],
  ['.*(?:a|b|aa|ab){1,100}[cd]', 'ab'.repeat(CHARS / 2)],
  ['.*(?:a|b|aa|ab){1,300}[cd]', 'ab'.repeat(CHARS / 2)],
  ['.*(?:a|b|aa|ab){1,1000}[cd]', 'ab'.repeat(CHARS / 2)],
  ['(?:x+x+)+y', 'x'.repeat(CHARS)],
  ['[a-q][^u-z]{13}x', 'ab'.repeat(CHARS / 2)],
  ['(?:\\w{1,50}\\s?){1,50}$', 'word '.repeat(CHARS / 5) + '!'],
  ['(?:a?){500}a{500}', 'a'.repeat(CHARS)],
];

function timeMatch(re: RE2JS, value: string): number {
  re.matcher(value).lookingAt(); // warm-up (and the DFA's states built)
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    re.matcher(value).lookingAt();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

console.log(`re2js, value of ${CHARS} characters, node ${process.version}`);
console.log('program size | compile ms | match ms | ns/char | ns/char/instruction | pattern');
for (const [pattern, value] of PATTERNS) {
  const t0 = performance.now();
  const re = RE2JS.compile(`^(?:${pattern})`);
  const compileMs = performance.now() - t0;
  const size = re.programSize();
  const ms = timeMatch(re, value);
  const nsPerChar = (ms * 1e6) / value.length;
  console.log(
    [size, compileMs.toFixed(1), ms.toFixed(2), nsPerChar.toFixed(0), (nsPerChar / size).toFixed(2), pattern].join(
      ' | ',
    ),
  );
}

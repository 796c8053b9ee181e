/**
 * The cost model of stored regular expressions (custom fields' validation_regex, webhook
 * regex conditions) on re2js, as storedPattern.ts runs them (`^(?:pattern)`, test()): the
 * program size (RE2JS.programSize(), the compiled program's instructions) against the
 * time a match takes per character of the value, and compiling's time per instruction.
 * Values are random a's and b's (the same at every run), which defeat RE2's DFA for the
 * costly patterns: it gives up when its states pass their memory budget and the NFA then
 * works through the program at each character (the worst case; a value the DFA handles,
 * such as `ab` repeated, is far cheaper once its states are built).
 *
 *   npx tsx bench/regexCost.bench.ts        (or: npm run bench -- regexCost)
 *
 * Env: CHARS (10000): the value's length. Prints per pattern: program size, compile ms, the
 * first match's ms (a fresh DFA) and the best of 3 after it, and the first match's ns per
 * character and per character and instruction (the constant INLINE_BUDGET is set from).
 */
import { performance } from 'node:perf_hooks';

import { RE2JS } from 're2js';

const CHARS = Number(process.env.CHARS ?? 10_000);

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

const PATTERNS = [
  '^[A-Z]{3}-\\d+$',
  '^https?://',
  '^(?:core|edge|access|distribution)$',
  '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$',
  '^[a-z0-9-]{1,63}(\\.[a-z0-9-]{1,63})*$',
  '(?:x+x+)+y',
  '.*a.{20}$',
  '.*a.{100}$',
  '.*(?:a|b|aa|ab){1,10}[cd]',
  '.*(?:a|b|aa|ab){1,100}[cd]',
  '.*a.{100}(?:a|b|aa|ab){1,150}[cd]',
  '.*(?:a|b|aa|ab){1,300}[cd]',
  '.*(?:a|b|aa|ab){1,1000}[cd]',
  `.*${'(?:a|b|aa|ab){1,1000}'.repeat(4)}[cd]`,
  `.*${'(?:a|b|aa|ab){1,1000}'.repeat(20)}[cd]`,
];

const value = seededAB(CHARS);
console.log(`re2js, values of ${CHARS} random a's and b's, node ${process.version}`);
console.log('program size | compile ms | first match ms | best of 3 ms | ns/char | ns/char/instruction | pattern');
for (const pattern of PATTERNS) {
  const t0 = performance.now();
  const re = RE2JS.compile(`^(?:${pattern})`);
  const compileMs = performance.now() - t0;
  const size = re.programSize();
  if (size > 20_000) {
    console.log(
      [size, compileMs.toFixed(1), '-', '-', '-', '-', `${pattern.slice(0, 57)}... (compiled only)`].join(' | '),
    );
    continue;
  }
  // A match past a second's work is not repeated.
  const first = timed(() => re.test(value));
  const best = first > 1000 ? first : Math.min(...[0, 1, 2].map(() => timed(() => re.test(value))));
  const nsPerChar = (first * 1e6) / value.length;
  const row = [size, compileMs.toFixed(1), first.toFixed(1), best.toFixed(1), nsPerChar.toFixed(0)];
  console.log(
    [...row, (nsPerChar / size).toFixed(1), pattern.length > 60 ? `${pattern.slice(0, 57)}...` : pattern].join(' | '),
  );
}

function timed(run: () => unknown): number {
  const t0 = performance.now();
  run();
  return performance.now() - t0;
}

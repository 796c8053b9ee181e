/**
 * Regular expressions that users store (webhook `regex` conditions, custom fields'
 * `validation_regex`) and that run against values any writer controls. JavaScript's
 * RegExp backtracks: `(a+)+$` against 30 characters holds the event loop for seconds. So
 * these run on RE2 (re2js, pure JavaScript), which matches in time linear in the input.
 *
 * RE2 reads Python's syntax for ordinary patterns (classes, repeats, `(?P<name>...)`,
 * inline flags such as `(?i)`), and the match is Python's `re.match`: anchored at the
 * start only. What it cannot match in linear time (backreferences, lookarounds,
 * possessive repeats) is refused when the pattern is written, with the reason.
 */
import { RE2JS } from 're2js';

/**
 * Compiled patterns kept, the least recently used dropped beyond it. Few: each keeps the
 * states its DFA built, up to about 7 MB (measured: 6.5 MB for `.*a.{20}$` after a few
 * hundred values), so a thousand would be gigabytes.
 */
const CACHE_SIZE = 32;
/** Program sizes kept (numbers: many). */
const SIZES = 1_000;

const cache = new Map<string, RE2JS | string>();
const sizes = new Map<string, number>();

/** RE2's own words after its generic prefix ("error parsing regexp: ..."). */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^error parsing regexp:\s*/, '');
}

/** The pattern compiled to match at the start of a value, or why it cannot be. */
function compiled(pattern: string): RE2JS | string {
  const hit = cache.get(pattern);
  if (hit !== undefined) {
    cache.delete(pattern); // the most recently used last
    cache.set(pattern, hit);
    return hit;
  }
  let result: RE2JS | string;
  try {
    // Compiled alone first, so that a stray ')' cannot close the anchoring group below.
    RE2JS.compile(pattern);
    result = RE2JS.compile(`^(?:${pattern})`);
  } catch (error) {
    result = reasonOf(error);
  }
  cache.set(pattern, result);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  sizes.set(pattern, typeof result === 'string' ? 0 : result.programSize());
  if (sizes.size > SIZES) sizes.delete(sizes.keys().next().value!);
  return result;
}

/**
 * Why `pattern` cannot be stored, in a sentence for a 400 answer; null when it can.
 * A pattern JavaScript takes but RE2 does not is named unsupported (not invalid).
 */
export function storedPatternProblem(pattern: string): string | null {
  const result = compiled(pattern);
  if (typeof result !== 'string') return null;
  let validElsewhere = true;
  try {
    new RegExp(pattern); // only compiled, never run: this tells invalid from unsupported
  } catch {
    validElsewhere = false;
  }
  return validElsewhere
    ? `${pattern} is not supported: only regular expressions that match in linear time are accepted ` +
        `(no backreferences, lookarounds or possessive repeats): ${result}`
    : `${pattern} is not a valid regular expression.`;
}

/** Whether `value` matches `pattern` at its start (Python's `re.match`); false for a refused pattern. */
export function matchesAtStart(pattern: string, value: string): boolean {
  const result = compiled(pattern);
  return typeof result !== 'string' && result.test(value);
}

/**
 * The size of the pattern's compiled program (RE2's instructions, `programSize()`), which
 * RE2's matching time per character of a value grows with (bench/regexCost.bench.ts):
 * 0 for a refused pattern. It compiles the pattern if this process has not yet, which for
 * a large program takes long itself (about 5 µs an instruction): see knownProgramSize.
 */
export function programSize(pattern: string): number {
  const result = compiled(pattern);
  return typeof result === 'string' ? 0 : result.programSize();
}

/**
 * The largest program a custom field's pattern may compile to. Ordinary patterns are far
 * below (`^[A-Z]{3}-\\d+$`: 11 instructions, `^https?://`: 13, an alternation of four words:
 * 34, a host name of 63-character labels: 259); past it a check of a value of 10,000
 * characters takes a third of a second or more, and checks of values past 10 characters
 * run off the event loop (INLINE_BUDGET, patternChecks.ts).
 */
export const MAX_PROGRAM_SIZE = 1_000;

/** Why a valid pattern's program is too large to be stored (a 400's sentence), or null. */
export function programSizeProblem(pattern: string): string | null {
  const size = programSize(pattern);
  return size <= MAX_PROGRAM_SIZE ? null : tooLarge(pattern, size);
}

/** The sentence of programSizeProblem for a size known already. */
export function tooLarge(pattern: string, size: number): string {
  return (
    `${pattern} compiles to a program of ${size} instructions, more than the limit of ${MAX_PROGRAM_SIZE}: ` +
    'checking a value takes time in its length times the program size (use fewer or smaller repeats).'
  );
}

/** The program size if this process has compiled the pattern (no compile), else null. */
export function knownProgramSize(pattern: string): number | null {
  return sizes.get(pattern) ?? null;
}

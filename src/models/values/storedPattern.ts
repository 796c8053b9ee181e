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

/** Compiled patterns kept; the least recently compiled are dropped beyond it. */
const CACHE_SIZE = 1_000;

const cache = new Map<string, RE2JS | string>();

/** RE2's own words after its generic prefix ("error parsing regexp: ..."). */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^error parsing regexp:\s*/, '');
}

/** The pattern compiled to match at the start of a value, or why it cannot be. */
function compiled(pattern: string): RE2JS | string {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
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

/**
 * The text every match of a literal `$regex` must contain: the list filters' contains,
 * starts-with, ends-with and exact lookups (src/projections/textPatterns.ts) are an escaped
 * literal with at most a '^' and an end anchor around it. A pattern with anything else
 * (alternatives, classes, quantifiers) has no such literal.
 */
import { foldCase } from '../caseFolding.js';
import { END, unescapeRegex } from '../textPatterns.js';

/**
 * The case-folded text a string matching `re` contains, or null when the pattern is not a
 * literal. A case-insensitive pattern must use Unicode folding ('iu'): only then is "matches"
 * the same as "the folded string contains the folded literal" (without 'u' JavaScript folds
 * by another rule). A case-sensitive match contains the literal itself, so its folded form too.
 */
export function foldedLiteralOf(re: RegExp): string | null {
  if (re.flags.includes('i') && !re.flags.includes('u')) return null;
  if (re.flags.includes('v') || re.flags.includes('x')) return null;
  let body = re.source;
  if (body.startsWith('^')) body = body.slice(1);
  if (body.endsWith(END)) body = body.slice(0, -END.length);
  const literal = unescapeRegex(body);
  return literal === null ? null : foldCase(literal);
}

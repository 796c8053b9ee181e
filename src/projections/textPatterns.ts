/**
 * Case-insensitive text matching as query-document terms: the text is always a
 * literal (escaped), so a value can never act as a pattern. Shared by list filters
 * and by the writer's uniqueness checks. The options are 'iu': case folding by the
 * rule of caseFolding.ts, which MongoDB follows anyway and JavaScript (the memory
 * store) only with 'u'; the escapes are therefore those valid in a 'u' pattern.
 */

const META = /[\\^$.|?*+()[\]{}\/]/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** The text as a literal regex fragment, the same in JavaScript ('u' mode included) and PCRE. */
export function escapeRegex(text: string): string {
  return text.replace(META, (c) => `\\${c}`).replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

const END = '(?![\\s\\S])';

/** The regex source of a text lookup over any of `values`. */
export function lookupPattern(lookup: 'ic' | 'isw' | 'iew' | 'ie', values: string[]): string {
  const alternatives = values.map(escapeRegex);
  const body = alternatives.length === 1 ? alternatives[0]! : `(?:${alternatives.join('|')})`;
  switch (lookup) {
    case 'ic':
      return body;
    case 'isw':
      return `^${body}`;
    case 'iew':
      return `${body}${END}`;
    case 'ie':
      return `^${body}${END}`;
  }
}

export function regexCondition(lookup: 'ic' | 'isw' | 'iew' | 'ie', values: string[]): Record<string, unknown> {
  return { $regex: lookupPattern(lookup, values), $options: 'iu' };
}

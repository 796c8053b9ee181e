/**
 * Case-insensitive text matching as query-document terms: the text is always a
 * literal (escaped), so a value can never act as a pattern. Shared by list filters
 * and by the writer's uniqueness checks. The options are 'iu': case folding by the
 * rule of caseFolding.ts, which MongoDB follows anyway and JavaScript (the memory
 * store) only with 'u'; the escapes are therefore those valid in a 'u' pattern.
 */

const ESCAPED = '\\^$.|?*+()[]{}/';
const META = /[\\^$.|?*+()[\]{}\/]/g;

const CONTROL = /[\u0000-\u001f\u007f]/g;

/** The text as a literal regex fragment, the same in JavaScript ('u' mode included) and PCRE. */
export function escapeRegex(text: string): string {
  return text
    .replace(META, (c) => `\\${c}`)
    .replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** The end anchor of ends-with and exact lookups (`$` would also match before a final newline). */
export const END = '(?![\\s\\S])';

/**
 * The text an escaped fragment stands for (escapeRegex's inverse), or null when the fragment
 * is anything else: an unescaped metacharacter, a class such as `\d`, a bad `\x` escape.
 */
export function unescapeRegex(fragment: string): string | null {
  let out = '';
  for (let i = 0; i < fragment.length; i++) {
    const c = fragment[i]!;
    if (c === '\\') {
      const next = fragment[i + 1];
      if (next === 'x') {
        const hex = fragment.slice(i + 2, i + 4);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) return null;
        out += String.fromCharCode(parseInt(hex, 16));
        i += 3;
      } else if (next !== undefined && ESCAPED.includes(next)) {
        out += next;
        i += 1;
      } else return null;
    } else if (ESCAPED.includes(c)) return null;
    else out += c;
  }
  return out;
}

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

/**
 * The literals of an exact case-insensitive match as regexCondition('ie', …) builds it,
 * `{ $regex: '^…(?![\s\S])', $options: 'i…' }` (one literal, or several as `(?:a|b)`),
 * or null for any other condition.
 */
export function exactLiterals(condition: unknown): string[] | null {
  const body = caseInsensitiveAnchored(condition);
  return body !== null && body.endsWith(END) ? literalsOf(body.slice(0, -END.length)) : null;
}

/**
 * The literals of a case-insensitive prefix match as regexCondition('isw', …) builds it,
 * `{ $regex: '^…', $options: 'i…' }`, or null for any other condition (an exact match's
 * end anchor is no literal).
 */
export function prefixLiterals(condition: unknown): string[] | null {
  const body = caseInsensitiveAnchored(condition);
  return body === null ? null : literalsOf(body);
}

/** The pattern after its start anchor, when the condition is a case-insensitive regex anchored at the start. */
function caseInsensitiveAnchored(condition: unknown): string | null {
  if (!condition || typeof condition !== 'object' || Array.isArray(condition)) return null;
  const c = condition as Record<string, unknown>;
  if (Object.keys(c).length !== 2 || typeof c.$regex !== 'string') return null;
  if (c.$options !== 'i' && c.$options !== 'iu') return null;
  return c.$regex.startsWith('^') ? c.$regex.slice(1) : null;
}

/** The literals of one escaped literal or a `(?:a|b)` group of them, or null. */
function literalsOf(body: string): string[] | null {
  const grouped = body.startsWith('(?:') && body.endsWith(')');
  const literals: string[] = [];
  for (const alternative of grouped ? alternativesOf(body.slice(3, -1)) : [body]) {
    const literal = unescapeRegex(alternative);
    if (literal === null) return null;
    literals.push(literal);
  }
  return literals;
}

/** A group's body cut at its unescaped '|'. */
function alternativesOf(body: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') i++;
    else if (body[i] === '|') {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}

/**
 * The one case-folding rule both read stores follow: Unicode simple case folding, the
 * rule of JavaScript's case-insensitive Unicode regexes (flags 'iu') and of MongoDB's
 * (PCRE in UTF mode, where the 'u' option is accepted and changes nothing). Under it
 * 'ſ' matches 's', the Kelvin sign 'K' matches 'k' and 'ẞ' matches 'ß', but 'ß' never
 * matches 'ss' (no folding changes a string's length). Without 'u', JavaScript folds
 * through toUpperCase and keeps those pairs apart, which MongoDB does not.
 *
 * `foldCase` gives a string's folded form for exact case-insensitive comparison by
 * equality (shadow keys): two strings that 'iu' regexes consider equal fold alike.
 */

const folded = new Map<string, string>();

function foldChar(c: string): string {
  const known = folded.get(c);
  if (known !== undefined) return known;
  // The engine's own 'iu' comparison decides: the lower case of the upper case where
  // that is one character of the same class, else the lower case, else the character.
  const same = new RegExp(`^[${c.replace(/[\\\]^-]/g, '\\$&')}]$`, 'iu');
  const upper = c.toUpperCase();
  const candidates = [[...upper].length === 1 ? upper.toLowerCase() : '', c.toLowerCase()];
  const out = candidates.find((x) => [...x].length === 1 && same.test(x)) ?? c;
  folded.set(c, out);
  return out;
}

export function foldCase(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u007f]*$/.test(text)) return text.toLowerCase();
  let out = '';
  for (const c of text) out += foldChar(c);
  return out;
}

/**
 * The one case-folding rule both read stores follow: Unicode simple case folding, the
 * rule of JavaScript's case-insensitive Unicode regexes (flags 'iu') and of MongoDB's
 * (PCRE in UTF mode, where the 'u' option is accepted and changes nothing). Under it
 * 'ſ' matches 's', the Kelvin sign 'K' matches 'k' and 'ẞ' matches 'ß', but 'ß' never
 * matches 'ss' (no folding changes a string's length). Without 'u', JavaScript folds
 * through toUpperCase and keeps those pairs apart, which MongoDB does not.
 *
 * `foldCase` gives a string's folded form for exact case-insensitive comparison by
 * equality (shadow keys, equality and text indexes): two strings that 'iu' regexes
 * consider equal fold alike. That includes the few characters the regexes take for one
 * another although neither is the other's upper or lower case (Unicode 15 made U+1FD3
 * fold to U+0390, U+1FE3 to U+03B0, U+FB05 to U+FB06): they fold to one of them.
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

let merged: Map<string, string> | null = null;

/**
 * Characters whose upper case is several characters, grouped by it: those the engine's
 * 'iu' comparison joins map to the group's first. Found from the engine itself, once.
 */
function mergedCharacters(): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (let cp = 0x80; cp <= 0xffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCharCode(cp);
    const upper = c.toUpperCase();
    if (upper.length < 2) continue;
    const members = groups.get(upper);
    if (members) members.push(c);
    else groups.set(upper, [c]);
  }
  const out = new Map<string, string>();
  for (const [first, ...rest] of groups.values()) {
    const same = new RegExp(`^[${first!}]$`, 'iu');
    for (const c of rest) if (same.test(c)) out.set(foldChar(c), foldChar(first!));
  }
  return out;
}

export function foldCase(text: string): string {
  if (/^[\u0000-\u007f]*$/.test(text)) return text.toLowerCase();
  merged ??= mergedCharacters();
  let out = '';
  for (const c of text) {
    const f = foldChar(c);
    out += merged.get(f) ?? f;
  }
  return out;
}

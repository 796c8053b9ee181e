/**
 * The folded form text indexes key on: caseFolding.ts's rule, plus the few characters
 * the 'iu' regexes take for one another although neither is the other's upper or lower
 * case, so foldCase keeps them apart (Unicode 15 made U+1FD3 fold to U+0390, U+1FE3 to
 * U+03B0, U+FB05 to U+FB06). An index keyed on a finer fold than the regexes use would
 * miss matches; a coarser one only adds candidates.
 */
import { foldCase } from '../caseFolding.js';

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
    for (const c of rest) if (same.test(c)) out.set(foldCase(c), foldCase(first!));
  }
  return out;
}

export function foldForIndex(text: string): string {
  const folded = foldCase(text);
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u007f]*$/.test(folded)) return folded;
  merged ??= mergedCharacters();
  let out = '';
  for (const c of folded) out += merged.get(c) ?? c;
  return out;
}

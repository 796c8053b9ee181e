/**
 * Hidden natural-sort keys ('_name') for NetBox's natural ordering.
 *
 * NetBox compares these keys with the database's locale collation; the read models
 * compare strings bytewise, so keys that differ only in letter case may order
 * differently from NetBox (e.g. 'b' vs 'C'). Digits sort below letters either way.
 */

/** Every run of digits left-padded with zeros to `integerPlaces`; case kept; cut at `maxLength`. */
export function naturalSortKey(value: unknown, maxLength = 100, integerPlaces = 8): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  const key = text.replace(/\d+/g, (digits) => digits.padStart(integerPlaces, '0'));
  return key.slice(0, maxLength);
}

/**
 * Interface names sort by [slot/][subslot/][position/][subposition/] (4 digits each, '9999'
 * when absent), then the alphabetic type, then id, channel and subinterface (6 digits each,
 * '......' when absent), then the naturalised remainder. NetBox compares this key with the
 * 'C' collation (byte order), as the read models do.
 */
const INTERFACE_NAME =
  /^(?<type>[^\d.:]+)?(?:(?<slot>\d+)\/)?(?:(?<subslot>\d+)\/)?(?:(?<position>\d+)\/)?(?:(?<subposition>\d+)\/)?(?<id>\d+)?(?::(?<channel>\d+))?(?:\.(?<vc>\d+))?(?<remainder>.*)$/s;

export function naturalInterfaceKey(value: unknown, maxLength = 100): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  const match = INTERFACE_NAME.exec(text);
  if (!match?.groups) return text.slice(0, maxLength);
  const g = match.groups;
  let out = '';
  for (const part of [g.slot, g.subslot, g.position, g.subposition]) {
    out += part !== undefined ? part.padStart(4, '0') : '9999';
  }
  if (g.type !== undefined) out += g.type;
  for (const part of [g.id, g.channel, g.vc]) {
    out += part !== undefined ? part.padStart(6, '0') : '......';
  }
  if (g.remainder && out.length < maxLength) {
    out += naturalSortKey(g.remainder, maxLength - out.length) ?? '';
  }
  return out.slice(0, maxLength);
}

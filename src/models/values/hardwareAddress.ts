/**
 * Canonical text of hardware addresses: MAC (EUI-48) and WWN (EUI-64), both rendered
 * as upper-case colon-separated octets. Accepted in the common notations
 * (aa:bb:.., aa-bb-.., aabb.ccdd.eeff, bare hex); whitespace is removed. Null when invalid.
 */

function canonical(input: unknown, octets: number): string | null {
  if (typeof input !== 'string') return null;
  const text = input.replace(/\s+/g, '');
  let hex: string | null = null;
  const separated = text.split(/[:-]/);
  if (separated.length === octets && separated.every((part) => /^[0-9a-fA-F]{1,2}$/.test(part))) {
    hex = separated.map((part) => part.padStart(2, '0')).join('');
  } else if (new RegExp(`^[0-9a-fA-F]{${octets * 2}}$`).test(text)) {
    hex = text;
  } else {
    const dotted = text.split('.');
    if (dotted.length === octets / 2 && dotted.every((part) => /^[0-9a-fA-F]{4}$/.test(part))) hex = dotted.join('');
  }
  if (hex === null) return null;
  return hex.toUpperCase().match(/../g)!.join(':');
}

/** 'AA:BB:CC:DD:EE:FF', or null when the value is not a MAC address. */
export function canonicalMac(input: unknown): string | null {
  return canonical(input, 6);
}

/** 'AA:BB:CC:DD:EE:FF:00:11', or null when the value is not a WWN. */
export function canonicalWwn(input: unknown): string | null {
  return canonical(input, 8);
}

/**
 * Normalises a stored MAC or WWN field in place: its canonical text, or null when empty.
 * Returns NetBox's message for a value that is neither.
 */
export function normalizeHardwareField(
  obj: Record<string, unknown>,
  field: string,
  kind: 'MAC' | 'WWN',
): string | null {
  const value = obj[field];
  if (value == null || value === '') {
    obj[field] = null;
    return null;
  }
  const text = kind === 'MAC' ? canonicalMac(value) : canonicalWwn(value);
  if (text === null) return `Invalid ${kind === 'MAC' ? 'MAC address' : 'WWN'} format: ${String(value)}`;
  obj[field] = text;
  return null;
}

/**
 * maxIds are kept in one meta document keyed by collection name; names contain dots,
 * which MongoDB reads as paths, so they are stored escaped ('%' → '%25', '.' → '%2E',
 * a leading '$' → '%24').
 */
export function encodeKey(name: string): string {
  return name.replace(/%/g, '%25').replace(/\./g, '%2E').replace(/^\$/, '%24');
}

export function decodeKey(key: string): string {
  return key.replace(/%(25|2E|24)/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

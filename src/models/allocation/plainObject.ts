/**
 * What the allocators (available-ips, available-prefixes, available-vlans; declared by
 * detailEndpoints.ts) ask of a request before reading it: each one is a dictionary.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

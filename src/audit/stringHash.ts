/**
 * FNV-1a over a string's UTF-16 code units, then a final mix so that the low bits depend on
 * all of them. Audit snapshots hold what it placed (the request table's slots, the field
 * marks' bits): a change to it must change STRING_TABLE_HASH and AUDIT_INDEX_FORMAT.
 */
export function stringHash(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) hash = Math.imul(hash ^ value.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  return (hash ^ (hash >>> 12)) >>> 0;
}

import * as zlib from 'node:zlib';

/**
 * CRC-32 (IEEE 802.3, the zlib/PNG/gzip polynomial 0xEDB88320, reflected), used to
 * checksum event log frames. Node >= 20.15 ships a native `zlib.crc32` (GB/s); on
 * older runtimes we fall back to a slice-by-8 table implementation in JS.
 */

const TABLES: Uint32Array[] = (() => {
  const t0 = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t0[n] = c >>> 0;
  }
  const tables = [t0];
  for (let i = 1; i < 8; i++) {
    const prev = tables[i - 1]!;
    const t = new Uint32Array(256);
    for (let n = 0; n < 256; n++) t[n] = (t0[prev[n]! & 0xff]! ^ (prev[n]! >>> 8)) >>> 0;
    tables.push(t);
  }
  return tables;
})();

/** Pure-JS CRC-32 (slice-by-8). Exported for tests; use `crc32`. */
export function crc32Js(data: Uint8Array, previous = 0): number {
  const [t0, t1, t2, t3, t4, t5, t6, t7] = TABLES as [
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
  ];
  let crc = ~previous >>> 0;
  let i = 0;
  const n = data.length;
  const end8 = n - (n % 8);
  while (i < end8) {
    const a = (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24)) ^ crc;
    const b = data[i + 4]! | (data[i + 5]! << 8) | (data[i + 6]! << 16) | (data[i + 7]! << 24);
    crc =
      t7[a & 0xff]! ^
      t6[(a >>> 8) & 0xff]! ^
      t5[(a >>> 16) & 0xff]! ^
      t4[a >>> 24]! ^
      t3[b & 0xff]! ^
      t2[(b >>> 8) & 0xff]! ^
      t1[(b >>> 16) & 0xff]! ^
      t0[b >>> 24]!;
    i += 8;
  }
  while (i < n) crc = t0[(crc ^ data[i++]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** CRC-32 of `data` (unsigned 32-bit), optionally continuing from a previous CRC. */
export const crc32: (data: Uint8Array, previous?: number) => number =
  typeof native === 'function' ? (data, previous = 0) => native(data, previous) >>> 0 : crc32Js;

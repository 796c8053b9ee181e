/**
 * MongoDB's sort order of BSON-like values: type brackets first (empty array < null
 * and missing < numbers < strings < documents < arrays < binary < booleans < dates <
 * regexes), then the value; strings compared bytewise in UTF-8, like MongoDB's
 * default "simple" collation.
 */

/** The sort value of a terminal empty array, which orders before null. */
export const EMPTY_ARRAY = Symbol('emptyArray');

/** UTF-16 code units whose order differs from code point order (surrogates and above). */
export const HIGH_UNITS = /[\ud800-\uffff]/;

function typeRank(v: unknown): number {
  if (v === EMPTY_ARRAY) return 0;
  if (v === null || v === undefined) return 1;
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return 2;
    case 'string':
      return 3;
    case 'boolean':
      return 8;
    default:
      break;
  }
  if (Array.isArray(v)) return 5;
  if (v instanceof Date) return 9;
  if (v instanceof RegExp) return 11;
  if (ArrayBuffer.isView(v)) return 6;
  return 4;
}

/** UTF-16 code unit → a key that orders like UTF-8 bytes (code point order). */
export function fixSurrogate(c: number): number {
  return c >= 0xe000 ? c - 0x800 : c + 0x2000;
}

/** Bytewise UTF-8 order, i.e. code point order (MongoDB's simple collation). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) return fixSurrogate(x) < fixSurrogate(y) ? -1 : 1;
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** MongoDB comparison of two BSON-like values (sort order). */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
    case 1:
      return 0;
    case 2: {
      const x = Number(a);
      const y = Number(b);
      if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : -1;
      if (Number.isNaN(y)) return 1;
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 3:
      return compareStrings(a as string, b as string);
    case 8:
      return a === b ? 0 : a ? 1 : -1;
    case 9: {
      const x = (a as Date).getTime();
      const y = (b as Date).getTime();
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 5: {
      const x = a as unknown[];
      const y = b as unknown[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const r = compareValues(x[i] === undefined ? null : x[i], y[i] === undefined ? null : y[i]);
        if (r !== 0) return r;
      }
      return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
    }
    case 11: {
      const x = a as RegExp;
      const y = b as RegExp;
      return compareStrings(x.source, y.source) || compareStrings(x.flags, y.flags);
    }
    case 6: {
      const x = new Uint8Array(
        (a as ArrayBufferView).buffer,
        (a as ArrayBufferView).byteOffset,
        (a as ArrayBufferView).byteLength,
      );
      const y = new Uint8Array(
        (b as ArrayBufferView).buffer,
        (b as ArrayBufferView).byteOffset,
        (b as ArrayBufferView).byteLength,
      );
      if (x.length !== y.length) return x.length < y.length ? -1 : 1;
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
      return 0;
    }
    default: {
      // Embedded documents: field by field — value type, then field name, then value.
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = Object.keys(x).filter((k) => x[k] !== undefined);
      const ky = Object.keys(y).filter((k) => y[k] !== undefined);
      const n = Math.min(kx.length, ky.length);
      for (let i = 0; i < n; i++) {
        const vx = x[kx[i]!];
        const vy = y[ky[i]!];
        const tr = typeRank(vx) - typeRank(vy);
        if (tr !== 0) return tr < 0 ? -1 : 1;
        const kr = compareStrings(kx[i]!, ky[i]!);
        if (kr !== 0) return kr;
        const vr = compareValues(vx, vy);
        if (vr !== 0) return vr;
      }
      return kx.length < ky.length ? -1 : kx.length > ky.length ? 1 : 0;
    }
  }
}

/**
 * A run of read-model documents as rows of values under shared key lists (shapes), and back:
 * a read-models snapshot's line from format 3 on.
 *
 * Line: {"shapes": [[key, ...], ...], "rows": [[shape, value, ...], ...]}, where `shape` is the
 * index of the row's key list in `shapes` and the values follow in that list's order. The
 * documents of a collection mostly share one shape, so each key is written once per line
 * rather than once per document: the body is about half as long, and JSON.parse makes arrays
 * of values instead of an object (and a hidden class look-up) per document. Objects are
 * then built by assigning the keys in order, so documents of one shape share a hidden class
 * as parsed ones do; no code is generated. Only the top level is turned into rows: nested
 * values stay as JSON.
 */
import type { ReadDocument } from '../../ReadStore.js';

interface RowsLine {
  shapes: string[][];
  rows: unknown[][];
}

/**
 * The line of `docs`. A key whose value is undefined is left out of the shape, as JSON.stringify
 * leaves it out of an object (in an array it would become null).
 */
export function documentRowsLine(docs: readonly ReadDocument[]): string {
  const shapes: string[][] = [];
  const shapeOf = new Map<string, number>();
  const rows: unknown[][] = new Array<unknown[]>(docs.length);
  let lastKeys: string[] | null = null;
  let lastShape = -1;
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d] as unknown as Record<string, unknown>;
    const keys = Object.keys(doc);
    // Consecutive documents mostly share their keys: compared with the last full shape, no look-up.
    let row = sameKeys(keys, lastKeys) ? rowOf(doc, lastShape, keys) : null;
    if (row === null) {
      const defined = keys.filter((key) => doc[key] !== undefined);
      const signature = JSON.stringify(defined);
      let shape = shapeOf.get(signature) ?? -1;
      if (shape < 0) {
        shape = shapes.length;
        shapes.push(defined);
        shapeOf.set(signature, shape);
      }
      if (defined.length === keys.length) {
        lastKeys = keys;
        lastShape = shape;
      }
      row = rowOf(doc, shape, defined)!;
    }
    rows[d] = row;
  }
  const line: RowsLine = { shapes, rows };
  return JSON.stringify(line);
}

/**
 * Turns parsed lines back into documents. One reader per body: it remembers the shapes seen.
 *
 * A shape's first document is made by Object.fromEntries, the others by assigning the keys in
 * order to `{}`: they then follow the hidden-class transitions the first one made, and share
 * its hidden class (and its frozen one) as JSON.parse's objects do. Without that first one, V8
 * would turn an object gaining more than about 16 properties by computed keys into a slow
 * dictionary (four times the memory, slower reads); a copy of a template object (`{...t}`)
 * stays fast but gets a hidden class of its own once frozen (twice the memory). Both were
 * measured on site documents; no code is generated.
 */
interface ShapeState {
  /** It holds the key __proto__ (its documents are all made by fromEntries). */
  special: boolean;
  /** A document of it was made (the hidden-class transitions exist). */
  made: boolean;
  /** The string values of its last document, by key index. */
  last: unknown[];
}

export class DocumentRowsReader {
  /** The shapes seen, by their key list's JSON. */
  private readonly seen = new Map<string, ShapeState>();

  /**
   * The documents of a parsed line, deeply frozen. Throws a RangeError when the line is not
   * one documentRowsLine writes (its checksum matched, so it was written so: a damaged body).
   *
   * Less to keep means less for the garbage collector to copy (every document survives, so
   * the young generation's collections, the main cost of a load, copy all it keeps): a string
   * equal to the one the last document of the shape had under the same key (times shared by
   * a bulk request's objects, statuses...) is taken from that one, and empty arrays and
   * objects are one frozen instance each (documents are frozen all through, so no one can
   * tell them apart but by identity).
   */
  documents(parsed: unknown): ReadDocument[] {
    const { shapes, rows } = (parsed ?? {}) as Partial<RowsLine>;
    if (!Array.isArray(shapes) || !Array.isArray(rows)) throw new RangeError('a line without shapes and rows');
    const states = shapes.map((keys) => this.stateOf(keys));
    // Per shape: true while its documents are made by fromEntries (its first, and any holding __proto__).
    const byEntries = states.map(({ special, made }) => special || !made);
    const docs = new Array<ReadDocument>(rows.length);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const shape = Array.isArray(row) ? (row[0] as number) : -1;
      const keys = shapes[shape];
      if (keys === undefined || row.length !== keys.length + 1) throw new RangeError(`row ${r} does not fit its shape`);
      const last = states[shape]!.last;
      for (let k = 0; k < keys.length; k++) {
        const value = row[k + 1];
        if (typeof value === 'string') {
          if (value === last[k]) row[k + 1] = last[k];
          else last[k] = value;
        } else if (value !== null && typeof value === 'object') row[k + 1] = frozenShared(value);
      }
      let doc: Record<string, unknown>;
      if (byEntries[shape]) {
        // fromEntries defines own properties: a key __proto__ stays data, as JSON.parse keeps it.
        doc = Object.fromEntries(keys.map((key, k) => [key, row[k + 1]]));
        byEntries[shape] = states[shape]!.special;
        states[shape]!.made = true;
      } else {
        doc = {};
        for (let k = 0; k < keys.length; k++) doc[keys[k]!] = row[k + 1];
      }
      docs[r] = Object.freeze(doc) as unknown as ReadDocument;
    }
    return docs;
  }

  /** Checks a shape and gives its state. */
  private stateOf(keys: unknown): ShapeState {
    if (!Array.isArray(keys) || keys.some((key) => typeof key !== 'string'))
      throw new RangeError('a shape that is not a list of keys');
    const signature = JSON.stringify(keys);
    let state = this.seen.get(signature);
    if (state === undefined) {
      if (new Set(keys).size !== keys.length) throw new RangeError('a shape repeats a key');
      state = { special: keys.includes('__proto__'), made: false, last: [] };
      this.seen.set(signature, state);
    }
    return state;
  }
}

const EMPTY_ARRAY: readonly unknown[] = Object.freeze([]);
const EMPTY_OBJECT: Readonly<Record<string, unknown>> = Object.freeze({});

/** A parsed array or object, deeply frozen; the shared frozen instance when it is empty. */
function frozenShared(value: object): unknown {
  if (Array.isArray(value)) return value.length === 0 ? EMPTY_ARRAY : deepFreeze(value);
  for (const key in value) if (Object.hasOwn(value, key)) return deepFreeze(value);
  return EMPTY_OBJECT;
}

/** The row of `doc` under a shape of `keys`, or null when one of them is undefined in it (another shape). */
function rowOf(doc: Record<string, unknown>, shape: number, keys: readonly string[]): unknown[] | null {
  const row = new Array<unknown>(keys.length + 1);
  row[0] = shape;
  for (let k = 0; k < keys.length; k++) {
    const value = doc[keys[k]!];
    if (value === undefined) return null;
    row[k + 1] = value;
  }
  return row;
}

function sameKeys(a: readonly string[], b: readonly string[] | null): boolean {
  if (b === null || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Parsed documents are stored as they are, so they are frozen like applied ones (freezeClone, without the copy). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    if (Array.isArray(value)) for (const item of value) deepFreeze(item);
    else for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

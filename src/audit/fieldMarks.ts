import type { ChangeEvent } from '../events/ChangeEvent.js';
import type { ModelRegistry } from '../models/registry.js';
import type { Query, Sort } from '../projections/ReadStore.js';
import { stringHash } from './stringHash.js';

/**
 * Which of a document's fields a change moved, as 32 marks: bit 0 for `last_updated` (every
 * update moves it), each other field on a bit of 1..31 by a hash of its name. Several fields
 * share a bit, so a mark says "maybe": a reader that needs to know whether an object's field
 * kept its value since a position may only skip the events whose marks miss the field's bit.
 * That is what lets a past view (PastView) overlay only the objects whose past differs in the
 * fields a query filters and sorts by: the others are selected as the live store holds them
 * and worked out at their past version when shown.
 */
export type FieldMarks = number;

/** Every bit: a create, a delete, a change whose fields are not known. */
export const ALL_FIELDS: FieldMarks = 0xffffffff;
const LAST_UPDATED = 'last_updated';
/** The mark of `last_updated` (moved by every update). */
export const LAST_UPDATED_MARK: FieldMarks = 1;
/**
 * Fields no mark follows: the position (moved by every event), and the display, which comes
 * from the event's representation, not from the document's fields. A query reading one of
 * them reads past versions whole.
 */
const UNMARKED = new Set(['_pos', 'display']);
/** Columns kept from other objects (relation order keys, the prefix hierarchy): no event of their own moves them. */
const KEPT_FROM_NEIGHBOURS = /^_(ord_|depth$|children$)/;

/** Bits of the fields seen, up to a bound (the models' field names; a query's are not trusted to be few). */
const bits = new Map<string, number>();
const MAX_REMEMBERED = 4_096;

/**
 * The bit of a top-level field. Audit snapshots keep the marks: a change to this spread
 * (or to stringHash) must change AUDIT_INDEX_FORMAT.
 */
export function fieldBit(field: string): number {
  let bit = bits.get(field);
  if (bit === undefined) {
    bit = field === LAST_UPDATED ? LAST_UPDATED_MARK : 1 << (1 + (stringHash(field) % 31));
    if (bits.size < MAX_REMEMBERED) bits.set(field, bit);
  }
  return bit;
}

/**
 * The marks of one event: every bit for a create or a delete, else the bits of the fields
 * whose stored values differ before and after it, derived columns (a name's natural sort
 * key) included.
 */
export function changedFieldMarks(registry: ModelRegistry, event: ChangeEvent): FieldMarks {
  const before = event.prechange;
  const after = event.postchange;
  if (event.action !== 'update' || !before || !after) return ALL_FIELDS;
  let marks = 0;
  for (const key in after) if (!sameValue(before[key], after[key])) marks |= fieldBit(key);
  for (const key in before) if (!(key in after)) marks |= fieldBit(key);
  const derive = registry.tryGet(event.objectType)?.hooks?.derive;
  if (derive && marks !== 0 && marks !== 1) {
    const was = derive({ ...before, id: event.objectId });
    const is = derive({ ...after, id: event.objectId });
    for (const key in is) if (!sameValue(was[key], is[key])) marks |= fieldBit(key);
  }
  return marks >>> 0;
}

/**
 * The marks of the fields a query and its sort read, or ALL_FIELDS when it reads one no
 * mark follows (UNMARKED, KEPT_FROM_NEIGHBOURS) or an operator whose fields are not named.
 */
export function queryFieldMarks(query: Query, sort?: Sort | string): FieldMarks {
  let marks = 0;
  const field = (path: string): boolean => {
    const top = path.split('.', 1)[0]!;
    if (UNMARKED.has(top) || KEPT_FROM_NEIGHBOURS.test(top)) return false;
    if (top !== 'id') marks |= fieldBit(top);
    return true;
  };
  const visit = (q: Query): boolean => {
    for (const key of Object.keys(q)) {
      if (key === '$and' || key === '$or' || key === '$nor') {
        const parts = q[key];
        if (!Array.isArray(parts)) return false;
        for (const part of parts) if (typeof part !== 'object' || part === null || !visit(part as Query)) return false;
      } else if (key.startsWith('$') || !field(key)) return false;
    }
    return true;
  };
  if (!visit(query)) return ALL_FIELDS;
  if (typeof sort === 'string') {
    if (!field(sort)) return ALL_FIELDS;
  } else if (sort) {
    for (const key of Object.keys(sort)) if (!field(key)) return ALL_FIELDS;
  }
  return marks >>> 0;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  // Most stored lists and maps are empty (no tags, no custom field values): equal without a serialisation.
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    if (a.length === 0) return true;
  } else if (isEmpty(a) && isEmpty(b)) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

function isEmpty(value: object): boolean {
  for (const _ in value) return false;
  return true;
}

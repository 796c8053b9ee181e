/**
 * The body of an audit-index snapshot: the AuditIndex's typed-array columns as their raw
 * bytes (no per-event encoding, so a million events write and load in well under a
 * second) and the small tables as JSON, plus the idempotency index.
 *
 * Layout: [u32 LE length of the meta JSON][meta JSON][sections], each section starting
 * at a multiple of 8 bytes from the body's start (zero bytes pad), so that a loader
 * reading the body into a buffer of its own lays the typed arrays over it without
 * copying. The meta lists the sections in order with their kind and byte length; the
 * typed arrays are in the machine's byte order, which the meta names (a snapshot from a
 * machine of the other order is refused, and the index rebuilt from the log).
 */
import { endianness } from 'node:os';

import type { ResumePoint } from '../events/EventLog.js';
import { asResumePoint } from '../events/resumePoint.js';
import type { AuditIndexImage } from './AuditIndex.js';
import type { IdempotentRequest } from './IdempotencyIndex.js';

/** The body's layout version (a snapshot header's `format`); 2 added the field marks, 3 each event's `last_updated`. */
export const AUDIT_INDEX_FORMAT = 3;
/**
 * The layouts this version reads: a body of format 1 loads with every event marked as changing
 * every field, one before format 3 with no `last_updated` known (read from the events instead).
 */
export const AUDIT_INDEX_FORMATS_READ: readonly number[] = [1, 2, 3];
/** Large sections are handed to the writer in pieces this big, so the event loop runs between them. */
const PIECE_BYTES = 4 << 20;
const ALIGN = 8;
const PADDING = Buffer.alloc(ALIGN);

/** Bytes of padding after `length` bytes to reach the next multiple of ALIGN. */
function padAfter(length: number): number {
  return (ALIGN - (length % ALIGN)) % ALIGN;
}

type ArrayKind = 'f64' | 'u32' | 'i32' | 'u16' | 'u8' | 'bytes' | 'lines';
type Typed = Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array;

const MAKERS: Record<Exclude<ArrayKind, 'bytes' | 'lines'>, new (length: number) => Typed> = {
  f64: Float64Array,
  u32: Uint32Array,
  i32: Int32Array,
  u16: Uint16Array,
  u8: Uint8Array,
};

interface SectionInfo {
  name: string;
  kind: ArrayKind;
  bytes: number;
}

interface Meta {
  endian: 'LE' | 'BE';
  head: number;
  ordered: boolean;
  /** Absent before format 3. */
  stampsOrdered?: boolean;
  stampMax?: number | null;
  lastTimeText: string;
  lastTimeMicros: number;
  types: string[];
  userNames: string[];
  loggedTypes: Array<[number, boolean]>;
  bigObjectLast: Array<[string, number]>;
  reverts: Array<[string, string[]]>;
  idempotency: Array<[string, IdempotentRequest]>;
  /** The hash the requestSlots section was made with; absent (and the section too) in older snapshots. */
  requestHash?: string;
  /** Where the index resumes reading a log that needs a cursor; absent in older snapshots. */
  resume?: ResumePoint | null;
  sections: SectionInfo[];
}

/** What one audit-index snapshot holds. */
export interface AuditState {
  index: AuditIndexImage;
  idempotency: Array<[string, IdempotentRequest]>;
  resume?: ResumePoint | null;
}

/** A snapshot body that cannot be an audit index (its checksum matched, so it was written so). */
export class AuditSnapshotFormatError extends Error {}

function kindOf(array: Typed): ArrayKind {
  if (array instanceof Float64Array) return 'f64';
  if (array instanceof Uint32Array) return 'u32';
  if (array instanceof Int32Array) return 'i32';
  if (array instanceof Uint16Array) return 'u16';
  return 'u8';
}

function bytesOf(array: Typed): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

/** The body's pieces, in order (views of the captured arrays: nothing large is copied). */
export function* encodeAuditState(state: AuditState): Generator<Buffer> {
  const { index } = state;
  // Request ids are UUIDs (the event schema checks them), so a line break never occurs in one.
  const requestIds = Buffer.from(index.requestIds.join('\n'), 'utf8');
  const sections: Array<{ name: string; kind: ArrayKind; data: Buffer }> = [
    ...Object.entries(index.columns).map(([name, array]) => ({ name, kind: kindOf(array), data: bytesOf(array) })),
    { name: 'reprBytes', kind: 'bytes', data: index.reprs.bytes },
    { name: 'reprStarts', kind: 'f64', data: bytesOf(index.reprs.starts) },
    { name: 'requestIds', kind: 'lines', data: requestIds },
    { name: 'objectKeys', kind: 'f64', data: bytesOf(index.objectKeys) },
    { name: 'objectLasts', kind: 'f64', data: bytesOf(index.objectLasts) },
    // Optional: readers from before it skip it (sections are found by name) and hash the ids.
    ...(index.requestSlots
      ? [{ name: 'requestSlots', kind: 'i32' as const, data: bytesOf(index.requestSlots.slots) }]
      : []),
  ];
  const meta: Meta = {
    endian: endianness(),
    head: index.head,
    ordered: index.ordered,
    stampsOrdered: index.stampsOrdered ?? false,
    // JSON has no -Infinity (no stamp yet): null.
    stampMax: Number.isFinite(index.stampMax) ? index.stampMax : null,
    lastTimeText: index.lastTimeText,
    lastTimeMicros: index.lastTimeMicros,
    types: index.types,
    userNames: index.userNames,
    loggedTypes: index.loggedTypes,
    bigObjectLast: index.bigObjectLast,
    reverts: index.reverts,
    idempotency: state.idempotency,
    ...(index.requestSlots ? { requestHash: index.requestSlots.hash } : {}),
    resume: state.resume ?? null,
    sections: sections.map(({ name, kind, data }) => ({ name, kind, bytes: data.byteLength })),
  };
  const json = Buffer.from(JSON.stringify(meta), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.byteLength, 0);
  yield length;
  yield json;
  if (padAfter(4 + json.byteLength) > 0) yield PADDING.subarray(0, padAfter(4 + json.byteLength));
  for (const { data } of sections) {
    for (let at = 0; at < data.byteLength; at += PIECE_BYTES)
      yield data.subarray(at, Math.min(data.byteLength, at + PIECE_BYTES));
    if (padAfter(data.byteLength) > 0) yield PADDING.subarray(0, padAfter(data.byteLength));
  }
}

/**
 * Rebuilds the captured state from a whole body. Typed arrays are views of the body
 * where it is aligned for them (it is when the body has a buffer of its own), copies
 * otherwise: the body must not be reused.
 */
export function decodeAuditState(body: Buffer, format = AUDIT_INDEX_FORMAT): AuditState {
  if (body.byteLength < 4) throw new AuditSnapshotFormatError('audit-index snapshot: body too short');
  const metaBytes = body.readUInt32LE(0);
  let meta: Meta;
  try {
    meta = JSON.parse(body.toString('utf8', 4, 4 + metaBytes)) as Meta;
  } catch {
    throw new AuditSnapshotFormatError('audit-index snapshot: the meta data is not JSON');
  }
  if (meta.endian !== endianness())
    throw new AuditSnapshotFormatError(`audit-index snapshot: written on a ${meta.endian} machine`);
  const sections = new Map<string, Typed | Buffer | string[]>();
  let at = 4 + metaBytes + padAfter(4 + metaBytes);
  for (const { name, kind, bytes } of meta.sections) {
    if (at + bytes > body.byteLength)
      throw new AuditSnapshotFormatError(`audit-index snapshot: section ${name} runs past the body`);
    const source = body.subarray(at, at + bytes);
    at += bytes + padAfter(bytes);
    if (kind === 'lines') {
      const text = source.toString('utf8');
      sections.set(name, text === '' ? [] : text.split('\n'));
    } else if (kind === 'bytes') {
      sections.set(name, source);
    } else {
      const make = MAKERS[kind];
      if (!make) throw new AuditSnapshotFormatError(`audit-index snapshot: unknown section kind ${kind}`);
      const probe = new make(0);
      if (bytes % probe.BYTES_PER_ELEMENT !== 0)
        throw new AuditSnapshotFormatError(`audit-index snapshot: section ${name} is not whole elements`);
      const count = bytes / probe.BYTES_PER_ELEMENT;
      if (source.byteOffset % probe.BYTES_PER_ELEMENT === 0) {
        sections.set(
          name,
          new (make as unknown as new (buffer: ArrayBufferLike, offset: number, length: number) => Typed)(
            source.buffer,
            source.byteOffset,
            count,
          ),
        );
      } else {
        const array = new make(count);
        new Uint8Array(array.buffer).set(source);
        sections.set(name, array);
      }
    }
  }
  if (at !== body.byteLength) throw new AuditSnapshotFormatError('audit-index snapshot: bytes after the last section');
  const take = <T>(name: string): T => {
    const found = sections.get(name);
    if (found === undefined) throw new AuditSnapshotFormatError(`audit-index snapshot: section ${name} is missing`);
    return found as T;
  };
  const columnNames = [
    'times',
    'timeMax',
    'actions',
    'types',
    'objectIds',
    'userIds',
    'userNames',
    'requests',
    'prevOfRequest',
    'prevOfObject',
    'logged',
    'loggedList',
    'requestLast',
  ] as const;
  const columns = Object.fromEntries(
    columnNames.map((name) => [name, take<Typed>(name)]),
  ) as unknown as AuditIndexImage['columns'];
  if (format >= 2) columns.fieldMarks = take<Uint32Array<ArrayBuffer>>('fieldMarks');
  if (format >= 3) {
    columns.lastUpdated = take<Float64Array<ArrayBuffer>>('lastUpdated');
    columns.lateStamps = take<Float64Array<ArrayBuffer>>('lateStamps');
  }
  return {
    index: {
      head: meta.head,
      ordered: meta.ordered,
      stampsOrdered: meta.stampsOrdered === true,
      stampMax: typeof meta.stampMax === 'number' ? meta.stampMax : -Infinity,
      lastTimeText: meta.lastTimeText,
      lastTimeMicros: meta.lastTimeMicros,
      columns,
      reprs: { bytes: take<Buffer>('reprBytes'), starts: take<Float64Array<ArrayBuffer>>('reprStarts') },
      types: meta.types,
      userNames: meta.userNames,
      requestIds: take<string[]>('requestIds'),
      ...requestSlotsOf(meta, sections.get('requestSlots')),
      loggedTypes: meta.loggedTypes,
      objectKeys: take<Float64Array<ArrayBuffer>>('objectKeys'),
      objectLasts: take<Float64Array<ArrayBuffer>>('objectLasts'),
      bigObjectLast: meta.bigObjectLast,
      reverts: meta.reverts,
    },
    idempotency: meta.idempotency,
    resume: asResumePoint(meta.resume),
  };
}

/** The request table's slots, when the snapshot has them (and names their hash). */
function requestSlotsOf(meta: Meta, section: Typed | Buffer | string[] | undefined): Partial<AuditIndexImage> {
  if (!(section instanceof Int32Array) || typeof meta.requestHash !== 'string') return {};
  return { requestSlots: { hash: meta.requestHash, slots: section as Int32Array<ArrayBuffer> } };
}

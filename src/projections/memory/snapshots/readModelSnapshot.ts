/**
 * The memory read models as a snapshot body, and back.
 *
 * Body (format 3), UTF-8, newline-delimited JSON:
 *   line 1: {"position": p, "maxIds": {...}, "collections": [{"name": ..., "count": n}, ...]}
 *   then each collection's documents in natural order, in the order listed, up to
 *   DOCS_PER_LINE documents per line, each line as documentRowsLine writes it (rows of
 *   values under shared key lists: about half the bytes of format 2, and faster to load).
 * Format 2 (still read: older files) had the same lines holding JSON arrays of the documents
 * as objects; 1 lacked the relation order keys, `_ord_<field>`, so it is replayed instead.
 * Lines of a few hundred documents parse as fast per byte as one big JSON.parse
 * (bench/snapshot.bench.ts) while no string ever holds more than one line, and a writer
 * can hand the event loop back between lines.
 *
 * Loading builds the capture apart from any store; the caller adopts it only once the
 * body's checksum was verified (readSnapshotBody throws at the end otherwise).
 */
import type { ResumePoint } from '../../../events/EventLog.js';
import { asResumePoint } from '../../../events/resumePoint.js';
import {
  cursorAt,
  readSnapshotBody,
  readSnapshotHeader,
  SnapshotDamagedError,
  type SnapshotHeader,
  writeSnapshot,
} from '../../../snapshots/SnapshotFile.js';
import type { ReadDocument } from '../../ReadStore.js';
import type { ReadModelCapture } from '../MemoryReadStore.js';
import { deepFreeze, documentRowsLine, DocumentRowsReader } from './documentRows.js';

export const READ_MODELS_PART = 'read-models';
export const READ_MODELS_FORMAT = 3;
/** Formats still read: 2 (documents as objects) and 3. */
const READABLE_FORMATS = [2, READ_MODELS_FORMAT];
const DOCS_PER_LINE = 500;
/** Bytes gathered before a chunk is handed to the file and the event loop gets a turn (a few ms of work). */
const CHUNK_BYTES = 1 << 18;
const NEWLINE = 0x0a;

interface Meta {
  position: number;
  /** Added without a format change: older snapshots lack it and resume from the log's beginning. */
  resume?: ResumePoint | null;
  maxIds: Record<string, number>;
  collections: Array<{ name: string; count: number }>;
}

/** The body's chunks. Each chunk is produced in one turn of the event loop; the consumer's awaits give the others. */
export async function* serialiseReadModels(capture: ReadModelCapture): AsyncGenerator<Buffer> {
  const meta: Meta = {
    position: capture.position,
    resume: capture.resume ?? null,
    maxIds: capture.maxIds,
    collections: capture.collections.map(({ name, docs }) => ({ name, count: docs.length })),
  };
  let pieces: string[] = [JSON.stringify(meta), '\n'];
  let size = 0;
  for (const { docs } of capture.collections) {
    for (let i = 0; i < docs.length; i += DOCS_PER_LINE) {
      const line = documentRowsLine(docs.slice(i, i + DOCS_PER_LINE));
      pieces.push(line, '\n');
      size += line.length;
      if (size >= CHUNK_BYTES) {
        yield Buffer.from(pieces.join(''), 'utf8');
        pieces = [];
        size = 0;
        await nextTurn();
      }
    }
  }
  if (pieces.length > 0) yield Buffer.from(pieces.join(''), 'utf8');
}

/** Parses a body of `format` (its chunks in order) into a capture with frozen documents. */
export async function parseReadModels(
  chunks: AsyncIterable<Buffer>,
  what = 'snapshot',
  format = READ_MODELS_FORMAT,
): Promise<ReadModelCapture> {
  let meta: Meta | null = null;
  let collections: ReadModelCapture['collections'] = [];
  let current = 0;
  const damaged = (why: string) => new SnapshotDamagedError(`${what}: ${why}`);
  const rows = new DocumentRowsReader();
  const line = (text: string) => {
    if (meta === null) {
      meta = JSON.parse(text) as Meta;
      if (typeof meta?.position !== 'number' || !Array.isArray(meta.collections))
        throw damaged('no read-model header line');
      collections = meta.collections.map(({ name }) => ({ name, docs: [] as ReadDocument[] }));
      return;
    }
    let docs: ReadDocument[];
    if (format === 2) docs = (JSON.parse(text) as ReadDocument[]).map(deepFreeze);
    else {
      try {
        docs = rows.documents(JSON.parse(text));
      } catch (error) {
        if (error instanceof RangeError) throw damaged(error.message);
        throw error;
      }
    }
    for (const doc of docs) {
      while (current < collections.length && collections[current]!.docs.length >= meta.collections[current]!.count)
        current++;
      if (current >= collections.length) throw damaged('more documents than its header lists');
      collections[current]!.docs.push(doc);
    }
  };
  // Lines are cut on the newline byte, which UTF-8 never uses inside a character. Only a
  // line that straddles chunks is copied (its pieces joined); the others are decoded in place.
  let pending: Buffer[] = [];
  for await (const chunk of chunks) {
    let start = 0;
    let end = chunk.indexOf(NEWLINE);
    if (end < 0) {
      pending.push(chunk);
      continue;
    }
    if (pending.length > 0) {
      pending.push(chunk.subarray(0, end));
      const joined = Buffer.concat(pending);
      pending = [];
      if (joined.length > 0) line(joined.toString('utf8'));
      start = end + 1;
      end = chunk.indexOf(NEWLINE, start);
    }
    for (; end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      if (end > start) line(chunk.toString('utf8', start, end));
      start = end + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) {
    const joined = Buffer.concat(pending);
    line(joined.toString('utf8'));
  }
  const found = meta as Meta | null;
  if (found === null) throw damaged('empty body');
  found.collections.forEach(({ count }, i) => {
    if (collections[i]!.docs.length !== count)
      throw damaged(
        `collection ${found.collections[i]!.name} has ${collections[i]!.docs.length} documents, its header says ${count}`,
      );
  });
  return { position: found.position, resume: asResumePoint(found.resume), maxIds: found.maxIds ?? {}, collections };
}

/** Writes a capture as a read-models snapshot (the event id is the log's at the capture's position). */
export async function writeReadModelSnapshot(dir: string, capture: ReadModelCapture, eventId: string): Promise<string> {
  return writeSnapshot(
    dir,
    {
      part: READ_MODELS_PART,
      format: READ_MODELS_FORMAT,
      position: capture.position,
      eventId,
      ...cursorAt(capture.position, capture.resume),
    },
    serialiseReadModels(capture),
  );
}

/**
 * A snapshot file's header and its capture, checked: part, format, checksum, and the
 * position the body states. A SnapshotDamagedError (or a JSON SyntaxError) otherwise.
 */
export async function readReadModelSnapshot(
  file: string,
): Promise<{ header: SnapshotHeader; capture: ReadModelCapture }> {
  const { header, bodyOffset } = await readSnapshotHeader(file);
  if (header.part !== READ_MODELS_PART)
    throw new SnapshotDamagedError(`${file}: a ${header.part} snapshot, not ${READ_MODELS_PART}`);
  if (!READABLE_FORMATS.includes(header.format))
    throw new SnapshotDamagedError(
      `${file}: format ${header.format} is not known (${READABLE_FORMATS.join(', ')} are)`,
    );
  let capture: ReadModelCapture;
  try {
    capture = await parseReadModels(readSnapshotBody(file, header, bodyOffset), file, header.format);
  } catch (error) {
    if (error instanceof SyntaxError)
      throw new SnapshotDamagedError(`${file}: body is not the JSON it should be (${error.message})`);
    throw error;
  }
  if (capture.position !== header.position)
    throw new SnapshotDamagedError(
      `${file}: body is at position ${capture.position}, the header says ${header.position}`,
    );
  return { header, capture };
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

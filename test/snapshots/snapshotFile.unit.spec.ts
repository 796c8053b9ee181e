import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { LogReadUnavailableError } from '../../src/events/LogReadUnavailableError.js';
import {
  eventIdsOf,
  listSnapshots,
  loadNewestMatching,
  pruneSnapshots,
  readSnapshotBody,
  readSnapshotHeader,
  SnapshotDamagedError,
  type SnapshotSkip,
  writeSnapshot,
} from '../../src/snapshots/SnapshotFile.js';

async function bodyOf(file: string): Promise<string> {
  const { header, bodyOffset } = await readSnapshotHeader(file);
  const chunks: Buffer[] = [];
  for await (const chunk of readSnapshotBody(file, header, bodyOffset)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8'); // a character may straddle two chunks
}

test('a snapshot is written whole, listed newest first and read back with its header', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'snap-'));
  await writeSnapshot(dir, { part: 'read-models', format: 1, position: 5, eventId: 'a' }, [
    Buffer.from('hello '),
    Buffer.from('world'),
  ]);
  await writeSnapshot(
    dir,
    { part: 'read-models', format: 1, position: 12, eventId: 'b' },
    (async function* () {
      yield Buffer.from('{"x":1}');
    })(),
  );
  await writeSnapshot(dir, { part: 'audit-index', format: 1, position: 7, eventId: 'c' }, []);
  const entries = await listSnapshots(dir, 'read-models');
  t.deepEqual(
    entries.map((e) => e.position),
    [12, 5],
  );
  const { header } = await readSnapshotHeader(entries[1]!.file);
  t.like(header, { part: 'read-models', format: 1, position: 5, eventId: 'a', bytes: 11 });
  t.is(await bodyOf(entries[1]!.file), 'hello world');
  t.is(await bodyOf(entries[0]!.file), '{"x":1}');
  t.deepEqual(
    (await readdir(dir)).filter((n) => n.endsWith('.tmp')),
    [],
  );
});

test('a body that does not match its checksum is reported at the end of the reading', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'snap-'));
  const file = await writeSnapshot(dir, { part: 'p', format: 1, position: 3, eventId: 'e' }, [Buffer.from('abcdef')]);
  const bytes = await readFile(file);
  bytes[bytes.length - 1] = 0x41;
  await writeFile(file, bytes);
  await t.throwsAsync(bodyOf(file), { instanceOf: SnapshotDamagedError, message: /checksum/ });
  await writeFile(file, bytes.subarray(0, bytes.length - 2));
  await t.throwsAsync(bodyOf(file), { instanceOf: SnapshotDamagedError, message: /bytes/ });
  await writeFile(file, 'not a snapshot');
  await t.throwsAsync(readSnapshotHeader(file), { instanceOf: SnapshotDamagedError });
});

test('a body of many chunks is read back whole, hashed on a worker; a change in any chunk is caught', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'snap-'));
  // Several read chunks (1 MiB each) with characters of every UTF-8 length across their borders.
  const text = Array.from({ length: 150_000 }, (_, i) => `line ${i} é Ω \u{1f600}`).join('\n');
  const file = await writeSnapshot(dir, { part: 'p', format: 1, position: 5, eventId: 'e' }, [Buffer.from(text)]);
  t.is(await bodyOf(file), text);
  const bytes = await readFile(file);
  bytes[1024 + 1_500_000] ^= 0x01; // in the second chunk of three
  await writeFile(file, bytes);
  await t.throwsAsync(bodyOf(file), { instanceOf: SnapshotDamagedError, message: /checksum/ });
});

test('a reader that stops early stops the hashing worker and closes the file', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'snap-'));
  const body = Buffer.alloc(5 << 20, 0x61);
  const file = await writeSnapshot(dir, { part: 'p', format: 1, position: 6, eventId: 'e' }, [body]);
  const { header, bodyOffset } = await readSnapshotHeader(file);
  for (let round = 0; round < 3; round++) {
    let chunks = 0;
    for await (const _ of readSnapshotBody(file, header, bodyOffset)) if (++chunks === 2) break;
    t.is(chunks, 2);
  }
  // Still readable whole afterwards (nothing left half-open in the way).
  t.is((await bodyOf(file)).length, body.length);
});

test('a failed write leaves no snapshot, and pruning keeps the newest', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'snap-'));
  await t.throwsAsync(
    writeSnapshot(
      dir,
      { part: 'p', format: 1, position: 9, eventId: 'e' },
      (async function* () {
        yield Buffer.from('partial');
        throw new Error('serialisation failed');
      })(),
    ),
    { message: 'serialisation failed' },
  );
  t.deepEqual(await readdir(dir), []);
  for (const position of [1, 2, 3, 4])
    await writeSnapshot(dir, { part: 'p', format: 1, position, eventId: `e${position}` }, []);
  await pruneSnapshots(dir, 'p', 2);
  t.deepEqual(
    (await listSnapshots(dir, 'p')).map((e) => e.position),
    [4, 3],
  );
});

test('the whole body is read into a buffer of its own and checked like the streamed one', async (t) => {
  const { readSnapshotBodyWhole } = await import('../../src/snapshots/SnapshotFile.js');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'snap-'));
  const file = await writeSnapshot(dir, { part: 'p', format: 1, position: 3, eventId: 'e' }, [
    Buffer.from('abcdef'),
    Buffer.from('gh'),
  ]);
  const whole = async () => {
    const { header, bodyOffset } = await readSnapshotHeader(file);
    return readSnapshotBodyWhole(file, header, bodyOffset);
  };
  const body = await whole();
  t.is(body.toString('utf8'), 'abcdefgh');
  t.is(body.byteOffset, 0, 'its own buffer: typed arrays can be laid over it');
  const bytes = await readFile(file);
  bytes[bytes.length - 1] = 0x41;
  await writeFile(file, bytes);
  await t.throwsAsync(whole(), { instanceOf: SnapshotDamagedError, message: /checksum/ });
  await writeFile(file, bytes.subarray(0, bytes.length - 2));
  await t.throwsAsync(whole(), { instanceOf: SnapshotDamagedError, message: /bytes/ });
});

const logFailures: Array<[string, () => Error]> = [
  [
    'unreachable (LogReadUnavailableError)',
    () => new LogReadUnavailableError('a read of offsets 7-7 received nothing (the partition leader is unreachable?)'),
  ],
  [
    'the client failing before a read could start',
    () =>
      Object.assign(new Error('Connection error: connect ECONNREFUSED 10.0.0.5:9092'), {
        name: 'KafkaJSNumberOfRetriesExceeded',
      }),
  ],
];
for (const [what, makeError] of logFailures)
  test(`a log that cannot be read (${what}) fails the loading and leaves every snapshot as it is`, async (t) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'snap-'));
    await writeSnapshot(dir, { part: 'p', format: 1, position: 4, eventId: 'e4' }, [Buffer.from('four')]);
    await writeSnapshot(dir, { part: 'p', format: 1, position: 8, eventId: 'e8' }, [Buffer.from('eight')]);
    const before = new Map<string, Buffer>();
    for (const name of await readdir(dir)) before.set(name, await readFile(path.join(dir, name)));
    const outage = makeError();
    let reads = 0;
    const log = {
      head: () => 10,
      readPositions: async () => {
        reads++;
        throw outage;
      },
    };
    const skipped: SnapshotSkip[] = [];
    let loads = 0;
    const error = await t.throwsAsync(
      loadNewestMatching(dir, 'p', {
        eventIdAt: eventIdsOf(log),
        load: async () => {
          loads++;
          return null;
        },
        skipped: (skip) => skipped.push(skip),
      }),
    );
    t.is(error, outage, "the log's error, rethrown");
    t.is(reads, 1, 'no older snapshot tried: none is at fault');
    t.is(loads, 0);
    t.deepEqual(skipped, []);
    const after = await readdir(dir);
    t.deepEqual([...after].sort(), [...before.keys()].sort());
    for (const name of after) t.deepEqual(await readFile(path.join(dir, name)), before.get(name), `${name} untouched`);
  });

test('an unreadable snapshot is still passed over for an older one', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'snap-'));
  await writeSnapshot(dir, { part: 'p', format: 1, position: 4, eventId: 'e4' }, [Buffer.from('four')]);
  const newest = await writeSnapshot(dir, { part: 'p', format: 1, position: 8, eventId: 'e8' }, [Buffer.from('eight')]);
  await writeFile(newest, 'not a snapshot');
  const log = {
    head: () => 10,
    readPositions: async (positions: readonly number[]) => positions.map((p) => ({ eventId: `e${p}` })),
  };
  const skipped: SnapshotSkip[] = [];
  const found = await loadNewestMatching(dir, 'p', {
    eventIdAt: eventIdsOf(log),
    load: async (file, header, bodyOffset) => {
      let text = '';
      for await (const chunk of readSnapshotBody(file, header, bodyOffset)) text += chunk.toString('utf8');
      return text;
    },
    skipped: (skip) => skipped.push(skip),
  });
  t.is(found?.value, 'four');
  t.is(found?.header.position, 4);
  t.is(skipped.length, 1);
  t.like(skipped[0], { file: newest, kind: 'unreadable' });
});

/**
 * A follower reads frames another process appends: only complete, checksummed frames
 * are taken in; a torn tail still being written waits; a log cut below what was taken
 * in is reported, never papered over.
 */
import { appendFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test, { type ExecutionContext } from 'ava';

import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { FileLogFollower, ReadOnlyLogError } from '../../src/events/file/FileLogFollower.js';
import { encodeFrame } from '../../src/events/file/frames.js';
import { FrameTail, LogDivergedError, type TailedBatch } from '../../src/events/file/FrameTail.js';
import { makeEvent } from '../support/makeEvent.js';

function tempDir(t: ExecutionContext): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-tail-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const frameOf = (first: number, count = 1): Buffer =>
  encodeFrame(JSON.stringify(Array.from({ length: count }, (_, i) => makeEvent(first + i))));
const positions = (batches: Array<{ events: ChangeEvent[] }>) =>
  batches.flatMap((b) => b.events.map((e) => e.position));
/** Every frame one poll finds. */
async function taken(tail: FrameTail): Promise<TailedBatch[]> {
  const batches: TailedBatch[] = [];
  for await (const batch of tail.poll()) batches.push(batch);
  return batches;
}

test('a frame still being written is not taken in until it is complete; then it is', async (t) => {
  const file = path.join(tempDir(t), 'events.log');
  const second = frameOf(3, 2);
  writeFileSync(file, Buffer.concat([frameOf(1, 2), second.subarray(0, 20)]));
  const tail = new FrameTail(file);
  t.deepEqual(positions(await taken(tail)), [1, 2]);
  t.is(tail.head, 2);
  t.is(tail.pendingBytes, 20);

  appendFileSync(file, second.subarray(20, second.length - 1));
  t.deepEqual(await taken(tail), [], 'one byte short: still waiting, no error');
  appendFileSync(file, second.subarray(second.length - 1));
  t.deepEqual(positions(await taken(tail)), [3, 4]);
  t.is(tail.pendingBytes, 0);
});

test('a torn tail that fails its CRC is waited on, and read once the writer rewrites it whole', async (t) => {
  const file = path.join(tempDir(t), 'events.log');
  const first = frameOf(1);
  const second = frameOf(2);
  const garbled = Buffer.from(second);
  garbled.fill(0x20, 12, 30); // the header is whole but the payload is not what its CRC says
  writeFileSync(file, Buffer.concat([first, garbled]));
  const tail = new FrameTail(file);
  t.deepEqual(positions(await taken(tail)), [1]);
  t.deepEqual(await taken(tail), []);
  // The writer's next start cuts the torn tail and writes position 2 again where it began.
  truncateSync(file, first.length);
  appendFileSync(file, second);
  t.deepEqual(positions(await taken(tail)), [2]);
});

test('a log cut below what was taken in, or a frame taken in replaced, is a LogDivergedError', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'events.log');
  writeFileSync(file, Buffer.concat([frameOf(1), frameOf(2)]));
  const cut = new FrameTail(file);
  t.deepEqual(positions(await taken(cut)), [1, 2]);
  truncateSync(file, frameOf(1).length);
  await t.throwsAsync(taken(cut), { instanceOf: LogDivergedError, message: /was cut/ });

  writeFileSync(file, Buffer.concat([frameOf(1), frameOf(2)]));
  const replaced = new FrameTail(file);
  await taken(replaced);
  // Same length, other content: the writer cut position 2 and wrote another event there.
  writeFileSync(
    file,
    Buffer.concat([frameOf(1), encodeFrame(JSON.stringify([makeEvent(2, { objectRepr: 'xxxxxx' })]))]),
  );
  await t.throwsAsync(taken(replaced), { instanceOf: LogDivergedError, message: /replaced/ });
});

test("a poll hands over one frame at a time: a replica's first look at a long log never holds all of its events", async (t) => {
  const file = path.join(tempDir(t), 'events.log');
  writeFileSync(file, Buffer.concat([frameOf(1, 2), frameOf(3, 2), frameOf(5, 2)]));
  const tail = new FrameTail(file);
  const seen: number[] = [];
  for await (const batch of tail.poll()) {
    seen.push(tail.head);
    t.is(batch.firstPosition, tail.head - 1, 'the frames after this one are not read yet');
  }
  t.deepEqual(seen, [2, 4, 6]);
});

test('no log yet is an empty log; it is read once the writer creates it', async (t) => {
  const file = path.join(tempDir(t), 'events.log');
  const tail = new FrameTail(file);
  t.deepEqual(await taken(tail), []);
  writeFileSync(file, frameOf(1));
  t.deepEqual(positions(await taken(tail)), [1]);
});

test('the follower delivers appended batches to subscribers as the file grows, refuses appends, and serves reads by position', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'events.log');
  writeFileSync(file, frameOf(1, 2));
  const follower = new FileLogFollower({ dir });
  await follower.open();
  t.teardown(() => follower.close());
  t.is(follower.head(), 2);
  await t.throwsAsync(follower.append([makeEvent(3)]), { instanceOf: ReadOnlyLogError });

  const seen: number[] = [];
  let reached: () => void = () => {};
  const atFive = new Promise<void>((resolve) => (reached = resolve));
  const sub = follower.subscribe(1, async (batch) => {
    seen.push(...batch.map((e) => e.position));
    if (seen.at(-1) === 5) reached();
  });
  await sub.caughtUp;
  t.deepEqual(seen, [1, 2]);

  const next = frameOf(3, 3);
  appendFileSync(file, next.subarray(0, 10)); // torn: nothing is delivered for it
  await follower.wake();
  t.deepEqual(seen, [1, 2]);
  appendFileSync(file, next.subarray(10));
  await atFive; // noticed by the watch (or the poll), not by this test
  t.deepEqual(seen, [1, 2, 3, 4, 5]);
  t.deepEqual(
    (await follower.readPositions([4, 1])).map((e) => e.position),
    [4, 1],
  );
  const read: number[] = [];
  for await (const batch of follower.read(2)) read.push(...batch.map((e) => e.position));
  t.deepEqual(read, [2, 3, 4, 5]);
});

test('the follower reports a log that diverged from what it applied and stops', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'events.log');
  writeFileSync(file, frameOf(1, 2));
  let failed: (error: Error) => void = () => {};
  const failure = new Promise<Error>((resolve) => (failed = resolve));
  const follower = new FileLogFollower({ dir, onFailed: failed });
  await follower.open();
  t.teardown(() => follower.close());
  truncateSync(file, 0);
  await follower.wake();
  t.true((await failure) instanceof LogDivergedError);
  t.true(follower.failed instanceof LogDivergedError);
});

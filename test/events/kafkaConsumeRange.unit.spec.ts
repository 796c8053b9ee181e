/**
 * consumeRange() (src/events/kafka/PartitionReader.ts) with a stand-in reader: what is left
 * behind when a read ends while its handler still runs.
 */
import test from 'ava';

import { Deferred } from '../../src/events/Deferred.js';
import { consumeRange, type PartitionReader, type ReaderOptions } from '../../src/events/kafka/PartitionReader.js';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

test('kafka fault: a read aborted while its handler runs sets no stall timer once the handler returns (it would hold shutdown for the stall limit)', async (t) => {
  const closing = new AbortController();
  let options: ReaderOptions | undefined;
  // A reader whose stop() returns at once, as it does when called while the handler runs.
  const reader = { start: async () => {}, stop: async () => {}, stopPromptly: async () => {} };
  const entered = new Deferred();
  const release = new Deferred();
  const read = consumeRange(
    (o) => ((options = o), reader as unknown as PartitionReader),
    0n,
    10n,
    async () => {
      entered.resolve();
      await release.promise;
    },
    { signal: closing.signal, stallMs: 60_000 },
  );
  const delivered = options!.onMessages([]);
  await entered.promise;
  closing.abort();
  await t.throwsAsync(read, { message: /closed during a read/ });
  const before = timers();
  release.resolve();
  await delivered;
  t.is(timers(), before, 'no timer was set after the read ended');
});

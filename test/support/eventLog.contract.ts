import test, { type ExecutionContext } from 'ava';

import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import type { EventLog } from '../../src/events/EventLog.js';
import { makeBatch, makeEvent } from './makeEvent.js';

/**
 * The EventLog port's contract, shared by every adapter's spec file.
 *
 * `makeLog` returns a fresh, empty, already opened log on storage of its own:
 * - `reopen()` closes the current instance and returns a new opened instance on the
 *   same storage (a process restart);
 * - `cleanup()` closes whichever instance is current and deletes the storage.
 */
export interface EventLogFixture {
  log: EventLog;
  reopen: () => Promise<EventLog>;
  cleanup: () => Promise<void>;
}

/** A fixture whose reopen() closes the current instance and opens another with `open` (same storage); cleanup closes it, then `cleanup`. */
export async function reopenable(
  open: () => Promise<EventLog>,
  cleanup: () => Promise<void> = async () => {},
): Promise<EventLogFixture> {
  let log = await open();
  return {
    log,
    reopen: async () => {
      await log.close();
      log = await open();
      return log;
    },
    cleanup: async () => {
      await log.close();
      await cleanup();
    },
  };
}

export function eventLogContract(name: string, makeLog: () => Promise<EventLogFixture>): void {
  const contract = (title: string, body: (t: ExecutionContext, fx: EventLogFixture) => Promise<void>) =>
    test(`${name} contract: ${title}`, async (t) => {
      const fx = await makeLog();
      try {
        await body(t, fx);
      } finally {
        await fx.cleanup();
      }
    });

  contract('an empty log has head 0 and reads nothing', async (t, { log }) => {
    t.is(log.head(), 0);
    t.deepEqual(await readAll(log, 1), []);
  });

  contract('append + read round trip, batch by batch', async (t, { log }) => {
    const batches = [makeBatch(1, 3), makeBatch(4, 1), makeBatch(5, 2)];
    for (const b of batches) await log.append(b);
    t.is(log.head(), 6);
    t.deepEqual(await readAll(log, 1), batches);
    t.deepEqual(await readAll(log, 0), batches, 'from below 1 reads everything');
  });

  contract('read(from) yields only positions >= from; a straddling batch yields its tail', async (t, { log }) => {
    const batches = [makeBatch(1, 3), makeBatch(4, 1), makeBatch(5, 2)];
    for (const b of batches) await log.append(b);
    t.deepEqual(positionsOf(await readAll(log, 2)), [[2, 3], [4], [5, 6]]);
    t.deepEqual(positionsOf(await readAll(log, 4)), [[4], [5, 6]]);
    t.deepEqual(positionsOf(await readAll(log, 6)), [[6]]);
    t.deepEqual(await readAll(log, 7), []);
    t.deepEqual((await readAll(log, 3))[0], [batches[0]![2]!]);
  });

  contract(
    'positions must continue the log: gaps, repeats and holes are rejected and nothing is written',
    async (t, fx) => {
      const { log } = fx;
      const first = makeBatch(1, 2);
      await log.append(first);
      await t.throwsAsync(log.append([makeEvent(4)]), undefined, 'gap after head');
      await t.throwsAsync(log.append([makeEvent(2)]), undefined, 'repeats head');
      await t.throwsAsync(log.append([makeEvent(1)]), undefined, 'rewrites the past');
      await t.throwsAsync(log.append([makeEvent(3), makeEvent(5)]), undefined, 'hole inside the batch');
      await t.throwsAsync(log.append([makeEvent(3), makeEvent(3)]), undefined, 'duplicate inside the batch');
      await t.throwsAsync(log.append([]), undefined, 'empty batch');
      t.is(log.head(), 2);
      t.deepEqual(await readAll(log, 1), [first]);

      const reopened = await fx.reopen();
      t.is(reopened.head(), 2);
      t.deepEqual(await readAll(reopened, 1), [first]);
      const next = makeBatch(3, 2);
      await reopened.append(next);
      t.deepEqual(await readAll(reopened, 1), [first, next], 'a rejected append does not poison the log');
    },
  );

  contract('an invalid event is rejected and nothing is written', async (t, { log }) => {
    await log.append(makeBatch(1, 1));
    const broken = [
      { ...makeEvent(2), eventId: 'not-a-uuid' },
      { ...makeEvent(2), objectType: 'Site' },
      { ...makeEvent(2), action: 'upsert' },
      (() => {
        const e: Partial<ChangeEvent> = makeEvent(2);
        delete e.requestId;
        return e;
      })(),
    ] as unknown as ChangeEvent[];
    for (const e of broken) await t.throwsAsync(log.append([e]));
    // one bad event spoils the whole batch
    await t.throwsAsync(log.append([makeEvent(2), { ...makeEvent(3), time: 'yesterday' }]));
    t.is(log.head(), 1);
    t.deepEqual(positionsOf(await readAll(log, 1)), [[1]]);
    await log.append([makeEvent(2)]);
    t.is(log.head(), 2);
  });

  contract('a batch is atomic: read and subscribe see it as one batch', async (t, { log }) => {
    const big = makeBatch(1, 50);
    const seen: ChangeEvent[][] = [];
    const sub = log.subscribe(1, async (b) => {
      seen.push(b);
    });
    await log.append(big);
    await waitFor(() => lastPosition(seen) === 50);
    t.deepEqual(await readAll(log, 1), [big]);
    t.deepEqual(seen, [big]);
    await sub.stop();
  });

  contract('concurrent appends commit in call order and all resolve', async (t, { log }) => {
    const order: number[] = [];
    const calls: Promise<void>[] = [];
    for (let i = 0; i < 30; i++) {
      calls.push(log.append(makeBatch(i * 2 + 1, 2)).then(() => void order.push(i)));
    }
    await Promise.all(calls);
    t.deepEqual(order, [...Array(30).keys()]);
    t.is(log.head(), 60);
    t.deepEqual(flat(await readAll(log, 1)), range(1, 60));
  });

  contract(
    'subscribe delivers existing then live batches in order, no gaps or duplicates, while appends race the catch-up',
    async (t, { log }) => {
      const appended: number[][] = [];
      let next = 1;
      const appendBatch = (size: number) => {
        const b = makeBatch(next, size);
        next += size;
        appended.push(b.map((e) => e.position));
        return log.append(b);
      };
      for (let i = 0; i < 40; i++) await appendBatch((i % 3) + 1);
      const existingHead = log.head();

      const seen: number[][] = [];
      const sub = log.subscribe(1, async (b) => {
        seen.push(b.map((e) => e.position));
        await new Promise((resolve) => setImmediate(resolve)); // a slow consumer
      });
      // Race the catch-up: a burst of un-awaited appends, then awaited ones spread over time.
      const burst: Promise<void>[] = [];
      for (let i = 0; i < 20; i++) burst.push(appendBatch((i % 4) + 1));
      await Promise.all(burst);
      for (let i = 0; i < 20; i++) {
        await appendBatch(2);
        if (i % 5 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await sub.caughtUp;
      t.true(lastOf(seen) >= existingHead);
      const head = log.head();
      await waitFor(() => lastOf(seen) >= head);
      await sub.stop();
      t.deepEqual(seen, appended, 'exactly the appended batches, in order, each once');
    },
  );

  contract('subscribe from a position inside a batch starts with its tail', async (t, { log }) => {
    await log.append(makeBatch(1, 3));
    await log.append(makeBatch(4, 3));
    const seen: number[][] = [];
    const sub = log.subscribe(5, async (b) => {
      seen.push(b.map((e) => e.position));
    });
    await sub.caughtUp;
    await log.append(makeBatch(7, 2));
    await waitFor(() => lastOf(seen) === 8);
    await sub.stop();
    t.deepEqual(seen, [
      [5, 6],
      [7, 8],
    ]);
  });

  contract('a subscriber ahead of the head sees only what reaches its position', async (t, { log }) => {
    await log.append(makeBatch(1, 2));
    const seen: number[][] = [];
    const sub = log.subscribe(4, async (b) => {
      seen.push(b.map((e) => e.position));
    });
    await sub.caughtUp; // nothing to catch up with
    await log.append(makeBatch(3, 3));
    await log.append(makeBatch(6, 1));
    await waitFor(() => lastOf(seen) === 6);
    await sub.stop();
    t.deepEqual(seen, [[4, 5], [6]]);
  });

  contract(
    'caughtUp resolves at once on an empty log, and after the head known at subscribe time otherwise',
    async (t, fx) => {
      const emptySub = fx.log.subscribe(1, async () => undefined);
      await withTimeout(emptySub.caughtUp, 2000, 'caughtUp on an empty log');
      await emptySub.stop();

      for (let i = 0; i < 10; i++) await fx.log.append(makeBatch(i * 5 + 1, 5));
      const seen: number[] = [];
      const sub = fx.log.subscribe(1, async (b) => {
        await new Promise((resolve) => setImmediate(resolve));
        for (const e of b) seen.push(e.position);
      });
      await sub.caughtUp;
      t.deepEqual(seen.slice(0, 50), range(1, 50));
      await sub.stop();
      t.pass();
    },
  );

  contract('stop() ends delivery', async (t, { log }) => {
    const seen: number[] = [];
    const sub = log.subscribe(1, async (b) => {
      for (const e of b) seen.push(e.position);
    });
    await log.append(makeBatch(1, 2));
    await waitFor(() => seen.length === 2);
    await sub.stop();
    await log.append(makeBatch(3, 2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.deepEqual(seen, [1, 2]);
  });

  contract(
    'a subscription resumed with the cursor it was handed, after a reopen, delivers exactly what follows; a foreign cursor costs nothing',
    async (t, fx) => {
      await fx.log.append(makeBatch(1, 3));
      await fx.log.append(makeBatch(4, 2));
      const cursors = new Map<number, string | undefined>();
      const first = fx.log.subscribe(1, async (b, cursor) => void cursors.set(b.at(-1)!.position, cursor));
      await first.caughtUp;
      await first.stop();
      t.deepEqual([...cursors.keys()], [3, 5]);
      const log = await fx.reopen();
      await log.append(makeBatch(6, 2));
      const resumeAt = (position: number, cursor: string | undefined) =>
        cursor === undefined ? null : { position, cursor };
      for (const resume of [resumeAt(3, cursors.get(3)), resumeAt(3, 'elsewhere:42'), resumeAt(3, 'kafka:987654')]) {
        const seen: number[][] = [];
        const sub = log.subscribe(4, async (b) => void seen.push(b.map((e) => e.position)), resume);
        await sub.caughtUp;
        await sub.stop();
        t.deepEqual(
          seen,
          [
            [4, 5],
            [6, 7],
          ],
          `resumed with ${JSON.stringify(resume)}`,
        );
      }
    },
  );

  contract('head and contents survive a reopen; appending continues after it', async (t, fx) => {
    const batches = [makeBatch(1, 4), makeBatch(5, 1), makeBatch(6, 3)];
    for (const b of batches) await fx.log.append(b);
    const log = await fx.reopen();
    t.is(log.head(), 8);
    t.deepEqual(await readAll(log, 1), batches);
    await t.throwsAsync(log.append([makeEvent(1)]));
    const more = makeBatch(9, 2);
    await log.append(more);
    t.is(log.head(), 10);
    const again = await fx.reopen();
    t.is(again.head(), 10);
    t.deepEqual(await readAll(again, 1), [...batches, more]);
  });
}

export async function readAll(log: EventLog, from: number): Promise<ChangeEvent[][]> {
  const out: ChangeEvent[][] = [];
  for await (const batch of log.read(from)) out.push(batch);
  return out;
}

function positionsOf(batches: ChangeEvent[][]): number[][] {
  return batches.map((b) => b.map((e) => e.position));
}

function flat(batches: ChangeEvent[][]): number[] {
  return batches.flatMap((b) => b.map((e) => e.position));
}

function lastPosition(batches: ChangeEvent[][]): number {
  return batches.at(-1)?.at(-1)?.position ?? 0;
}

function lastOf(batches: number[][]): number {
  return batches.at(-1)?.at(-1) ?? 0;
}

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

export async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

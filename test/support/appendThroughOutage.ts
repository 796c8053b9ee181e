import type { ExecutionContext } from 'ava';

import type { KafkaEventLog } from '../../src/events/kafka/KafkaEventLog.js';
import { readAll } from './eventLog.contract.js';
import { makeBatch } from './makeEvent.js';

/** How the broker that coordinates the writer's transactions is taken away and brought back. */
export interface BrokerOutage {
  down(): Promise<void>;
  up(): Promise<void>;
}

/** recover() is tried this often while the broker comes back (a bounded loop, not a timed assertion). */
const RECOVER_ATTEMPTS = 120;

/**
 * Appends while the transaction coordinator goes away in the middle of a transaction and
 * comes back, then checks what a client relies on: every append either resolved (and is
 * then in the log, once) or was rejected (and none of it is), recover() brings the writer
 * back, later appends continue the log densely, and a fresh reader sees exactly the
 * acknowledged batches.
 */
export async function appendThroughOutage(
  t: ExecutionContext,
  log: KafkaEventLog,
  outage: BrokerOutage,
  reopen: () => Promise<KafkaEventLog>,
): Promise<void> {
  const acknowledged: number[][] = [];
  const append = async (count: number): Promise<boolean> => {
    const batch = makeBatch(log.head() + 1, count);
    try {
      await log.append(batch);
      acknowledged.push(batch.map((e) => e.position));
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 3; i++) t.true(await append(2), 'appends before the outage succeed');

  // The transaction is open (or committing) when the coordinator goes away.
  const inFlight = append(3);
  await outage.down();
  await outage.up();
  const resolved = await inFlight;
  t.log(
    `the append in flight during the outage ${resolved ? 'resolved (it is committed)' : 'was rejected (it is not committed)'}`,
  );

  let recovered = false;
  for (let attempt = 0; attempt < RECOVER_ATTEMPTS && !recovered; attempt++) {
    if (log.unavailable() === null && (await append(1))) recovered = true;
    else await log.recover().catch(() => new Promise((resolve) => setTimeout(resolve, 500)));
  }
  t.true(recovered, 'writes resume once the broker is back');
  for (let i = 0; i < 2; i++) t.true(await append(2), 'and go on');

  const reader = await reopen();
  const found = (await readAll(reader, 1)).map((batch) => batch.map((e) => e.position));
  t.deepEqual(found, acknowledged, 'exactly the acknowledged batches, each once, in order');
  t.deepEqual(
    found.flat(),
    found.flat().map((_, i) => i + 1),
    'dense from 1',
  );
}

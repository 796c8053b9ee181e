import type { PastStamp, RecordedChange, WriteTransaction } from './WriteCoordinator.js';

/** One change of an imported registry's history, as it was made there: a recorded change with its own stamp. */
export interface PastChange extends Omit<RecordedChange, 'past'>, PastStamp {}

/**
 * Records an imported registry's history as the past of the objects it describes: each
 * change as it was made (time, request, user, snapshots), not decided again (the rules
 * of the day applied then). Changes are recorded in time order, so `?as_of=` finds the
 * state of any moment; the import's own objects come after them.
 */
export function recordPastChanges(tx: WriteTransaction, changes: readonly PastChange[]): void {
  const inOrder = [...changes].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  for (const change of inOrder) {
    const { time, requestId, user, ...recorded } = change;
    tx.record({ ...recorded, past: { time, requestId, user } });
  }
}

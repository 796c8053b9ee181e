import type { ChangeEvent } from '../events/ChangeEvent.js';

export interface IdempotentRequest {
  requestId: string;
  fingerprint: string;
  /** When the request was decided, in milliseconds since the epoch. */
  time: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Idempotency-Key → the request that used it, per caller, built from the log like the
 * other audit indexes, so a retry is recognised even after a restart. Entries older
 * than 24 hours are forgotten.
 */
export class IdempotencyIndex {
  private readonly requests = new Map<string, IdempotentRequest>();

  add(batch: readonly ChangeEvent[]): void {
    const first = batch[0];
    if (!first?.idempotency) return;
    const time = Date.parse(first.time);
    this.requests.set(slot(first.user?.id ?? null, first.idempotency.key), {
      requestId: first.requestId,
      fingerprint: first.idempotency.fingerprint,
      time,
    });
    if (this.requests.size % 1024 === 0) this.prune(time);
  }

  lookup(userId: number | null, key: string, now = Date.now()): IdempotentRequest | null {
    const found = this.requests.get(slot(userId, key));
    return found && now - found.time < DAY_MS ? found : null;
  }

  /** Every entry with its slot (for a snapshot; lookups still forget the expired ones). */
  entries(): Array<[string, IdempotentRequest]> {
    return [...this.requests].map(([slot, entry]) => [slot, { ...entry }]);
  }

  /** Takes a snapshot's entries (into an empty index). */
  load(entries: ReadonlyArray<[string, IdempotentRequest]>): void {
    if (this.requests.size > 0) throw new Error('IdempotencyIndex.load(): the index is not empty');
    for (const [slot, entry] of entries)
      this.requests.set(slot, { requestId: entry.requestId, fingerprint: entry.fingerprint, time: entry.time });
  }

  private prune(now: number): void {
    for (const [key, entry] of this.requests) if (now - entry.time >= DAY_MS) this.requests.delete(key);
  }
}

function slot(userId: number | null, key: string): string {
  return `${userId ?? 'anonymous'}\0${key}`;
}

/** How many batch ends are remembered; a start-up needs only the few most recent. */
const KEPT = 256;

/**
 * Where the batches this instance has seen end (position of the last event → the offset
 * after it): a subscription from just after one of them (the auth cache follows from the
 * head found at open) seeks there instead of reading the partition from its start.
 */
export class BatchEnds {
  private readonly ends = new Map<number, bigint>();

  note(position: number, nextOffset: bigint): void {
    if (this.ends.has(position)) return;
    this.ends.set(position, nextOffset);
    if (this.ends.size > KEPT) this.ends.delete(this.ends.keys().next().value!);
  }

  /** The offset after the batch ending at `position`, if seen. */
  after(position: number): bigint | undefined {
    return this.ends.get(position);
  }
}

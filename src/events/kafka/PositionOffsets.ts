/**
 * Log position → Kafka offset, learned from the messages an adapter's readers consume,
 * so that a random read can seek close to the event instead of scanning the partition.
 * Readers may teach it out of order (a subscription that seeked ahead, a background read
 * of what it skipped): 8 bytes per position up to the highest one recorded.
 */
export class PositionOffsets {
  private offsets = new Float64Array(1024).fill(Number.NaN);
  /** Every position up to this one is known. */
  private known = 0;
  /** The highest position recorded. */
  private top = 0;

  record(position: number, offset: number): void {
    if (!Number.isSafeInteger(position) || position < 1) return;
    if (position >= this.offsets.length) {
      let size = this.offsets.length * 2;
      while (position >= size) size *= 2;
      const bigger = new Float64Array(size).fill(Number.NaN);
      bigger.set(this.offsets);
      this.offsets = bigger;
    }
    if (!Number.isNaN(this.offsets[position]!)) return; // a position's offset never changes
    this.offsets[position] = offset;
    this.top = Math.max(this.top, position);
    while (this.known + 1 < this.offsets.length && !Number.isNaN(this.offsets[this.known + 1]!)) this.known++;
  }

  has(position: number): boolean {
    return (
      Number.isInteger(position) &&
      position >= 1 &&
      position < this.offsets.length &&
      !Number.isNaN(this.offsets[position]!)
    );
  }

  /** The offset of a known position. */
  get(position: number): number {
    if (!this.has(position)) throw new RangeError(`offset of position ${position} unknown`);
    return this.offsets[position]!;
  }

  /** The last position up to which every offset is known (0 when none). */
  get last(): number {
    return this.known;
  }

  /** The highest position recorded (0 when none): readers consume committed events only, so it is committed. */
  get highest(): number {
    return this.top;
  }

  get byteLength(): number {
    return this.offsets.byteLength;
  }
}

/**
 * Log position → Kafka offset, learned from the messages an adapter's readers consume
 * (in log order), so that a random read can seek close to the event instead of
 * scanning the partition. Dense from position 1: 8 bytes per event.
 */
export class PositionOffsets {
  private offsets = new Float64Array(1024);
  private known = 0;

  /** Records where `position` is; only the next unknown position extends the table. */
  record(position: number, offset: number): void {
    if (position !== this.known + 1) return;
    if (this.known + 1 >= this.offsets.length) {
      const bigger = new Float64Array(this.offsets.length * 2);
      bigger.set(this.offsets);
      this.offsets = bigger;
    }
    this.offsets[position] = offset;
    this.known = position;
  }

  has(position: number): boolean {
    return position >= 1 && position <= this.known;
  }

  /** The offset of a known position. */
  get(position: number): number {
    if (!this.has(position)) throw new RangeError(`offset of position ${position} unknown`);
    return this.offsets[position]!;
  }

  /** The last position whose offset is known (0 when none). */
  get last(): number {
    return this.known;
  }

  get byteLength(): number {
    return this.offsets.byteLength;
  }
}

/** Sparse index: one (first position, file offset) checkpoint per this many bytes of log. */
const INDEX_EVERY_BYTES = 1 << 20;

export interface Checkpoint {
  readonly position: number;
  readonly offset: number;
}

/**
 * Where to start reading the file for a position: one checkpoint per MiB of log, so
 * read(from) and subscribe(from) start near `from` instead of at the start of the file
 * while costing next to no memory.
 */
export class CheckpointIndex {
  private readonly entries: Checkpoint[] = [];

  /** Called for every durable frame, in file order. */
  note(firstPosition: number, offset: number): void {
    const last = this.entries[this.entries.length - 1];
    if (last === undefined || offset - last.offset >= INDEX_EVERY_BYTES) {
      this.entries.push({ position: firstPosition, offset });
    }
  }

  /** The last checkpoint whose frame starts at or before `position`. */
  seek(position: number): Checkpoint {
    let lo = 0;
    let hi = this.entries.length - 1;
    let found: Checkpoint = { position: 1, offset: 0 };
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const entry = this.entries[mid]!;
      if (entry.position <= position) {
        found = entry;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }
}

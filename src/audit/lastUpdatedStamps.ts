import type { ChangeEvent } from '../events/ChangeEvent.js';
import { Column } from './columns.js';
import { formatMicros, writtenTimeMicros } from './time.js';

/** The stamps' part of an audit-index image (absent before format 3). */
export interface StampsImage {
  column: Float64Array<ArrayBuffer>;
  /** The positions whose stamp is below an earlier one, ascending. */
  late: Float64Array<ArrayBuffer>;
  ordered: boolean;
  max: number;
}

/**
 * Late stamps tracked at most: beyond them (history imported in another order) lists ordered
 * by `last_updated` are overlaid instead.
 */
const MOST_LATE = 100_000;

/**
 * The `last_updated` each event's version of its object carries, per position, in
 * microseconds (NaN: not known without reading the event). A past view orders and filters by
 * them without reading the events (PastView.restamp), and reads a list ordered by
 * `last_updated` off the positions (lastUpdatedOrder.ts): stamps mostly grow with the
 * positions (the service stamps a change with its time); the few below an earlier one
 * (a branch's creates merged later keep their time in the branch, imported history) are
 * listed apart as late. While every stamp is known and the late ones are few, `ordered`.
 */
export class LastUpdatedStamps {
  private readonly column = new Column(Float64Array);
  private readonly lateColumn = new Column(Float64Array);
  private inOrder = true;
  private max = -Infinity;
  /** The last event time seen and its microseconds when written as formatMicros writes it (else NaN). */
  private timeText = '';
  private timeWritten = NaN;

  constructor() {
    this.column.push(NaN); // slot 0: no position
  }

  /** Takes the event at the next position. */
  add(event: ChangeEvent): void {
    if (event.time !== this.timeText) {
      this.timeText = event.time;
      this.timeWritten = writtenTimeMicros(event.time);
    }
    // Written by this service, an object's last_updated is its event's time: no second parse.
    const text = event.postchange?.last_updated;
    const stamp = text === undefined ? NaN : text === event.time ? this.timeWritten : writtenTimeMicros(text);
    this.column.push(stamp);
    if (text === undefined) return; // a model without the field, or a delete
    if (stamp >= this.max) this.max = stamp;
    else if (Number.isNaN(stamp) || this.lateColumn.length >= MOST_LATE) this.inOrder = false;
    else this.lateColumn.push(event.position);
  }

  /** Whether every `last_updated` the events carry is known, and those below an earlier one are listed (late). */
  get ordered(): boolean {
    return this.inOrder;
  }

  /** The positions whose stamp is below an earlier one's, ascending: the others' stamps grow with their positions. */
  get late(): Float64Array {
    return this.lateColumn.used();
  }

  micros(p: number): number {
    return this.column.get(p);
  }

  /** As it is stored; undefined when not known. */
  text(p: number): string | undefined {
    const micros = this.column.get(p);
    return Number.isNaN(micros) ? undefined : formatMicros(micros);
  }

  image(): StampsImage {
    return { column: this.column.used(), late: this.lateColumn.used(), ordered: this.inOrder, max: this.max };
  }

  /** Adopts an image's column (`slots` long), or without one (an older snapshot) knows none before the head. */
  load(image: StampsImage | undefined, slots: number): void {
    if (!image) {
      this.column.adopt(new Float64Array(slots).fill(NaN));
      this.inOrder = false;
      return;
    }
    if (image.column.length !== slots)
      throw new RangeError(`AuditIndex.load(): last_updated holds ${image.column.length} slots, not ${slots}`);
    this.column.adopt(image.column);
    this.lateColumn.adopt(image.late);
    this.inOrder = image.ordered;
    this.max = image.max;
  }
}

import type { ChangeEvent } from '../events/ChangeEvent.js';
import { Column } from './columns.js';
import { formatMicros, writtenTimeMicros } from './time.js';

/** The stamps' part of an audit-index image (absent before format 3). */
export interface StampsImage {
  column: Float64Array<ArrayBuffer>;
  ordered: boolean;
  max: number;
}

/**
 * The `last_updated` each event's version of its object carries, per position, in
 * microseconds (NaN: not known without reading the event), and whether those never went
 * backwards. A past view orders and filters by them without reading the events
 * (PastView.restamp), and while they are in order reads a list ordered by `last_updated`
 * off the positions (lastUpdatedOrder.ts). Imported history may break the order; then such
 * lists are overlaid.
 */
export class LastUpdatedStamps {
  private readonly column = new Column(Float64Array);
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
    else this.inOrder = false; // below an earlier one, or not known (NaN)
  }

  /** Whether every `last_updated` the events carry is known and none is below an earlier one. */
  get ordered(): boolean {
    return this.inOrder;
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
    return { column: this.column.used(), ordered: this.inOrder, max: this.max };
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
    this.inOrder = image.ordered;
    this.max = image.max;
  }
}

import type { ReadDocument } from '../ReadStore.js';

/** A stored document as the indexes hold it. */
export interface Entry {
  doc: ReadDocument;
  /** Insertion sequence within the collection: natural order and sort tie-breaker. */
  seq: number;
}

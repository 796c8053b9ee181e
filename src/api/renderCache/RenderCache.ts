/**
 * Rendered objects kept as encoded JSON, so that a page is mostly a join of strings.
 *
 * An entry holds one object's rendering (one representation, one base URL) with what
 * it depends on: the object's version (`_pos`), the read position when its rendering
 * began, and every collection the rendering read (related objects, counts, custom
 * fields, config contexts, ...). It is served only while the object is at that version
 * and none of those collections has changed since: the projector tells the last
 * position at which each collection changed. A renamed site therefore retires the
 * renderings of devices (which read sites), not those of VLAN groups that never
 * read one. Several objects rendered in one batch share the batch's collections: a
 * superset, which can only retire an entry early, never serve it stale.
 *
 * Bounded by bytes: beyond the budget the oldest entries go first.
 */

export interface CollectionChanges {
  /** The read position the read models are at. */
  readonly position: number;
  /** The last position at which the collection changed (0: not since start). */
  changedAt(collection: string): number;
}

interface Entry {
  version: number;
  renderedAt: number;
  reads: readonly string[];
  text: Buffer;
}

export class RenderCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly changes: CollectionChanges,
    private readonly maxBytes: number,
  ) {}

  /** Where renderings begin: their entries are valid only if nothing they read changed after it. */
  get position(): number {
    return this.changes.position;
  }

  /** The text kept for the object at this version, if nothing its rendering read has changed since. */
  get(key: string, version: number): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version || !this.fresh(entry)) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return entry.text;
  }

  /**
   * The collections the kept rendering of the object at this version read, while it is
   * fresh (undefined when none is kept).
   */
  dependencies(key: string, version: number): readonly string[] | undefined {
    const entry = this.entries.get(key);
    return entry && entry.version === version && this.fresh(entry) ? entry.reads : undefined;
  }

  set(key: string, version: number, renderedAt: number, reads: readonly string[], text: Buffer): void {
    if (this.maxBytes <= 0) return;
    this.delete(key);
    const entry: Entry = { version, renderedAt, reads, text };
    if (!this.fresh(entry)) return; // something changed while it was rendered
    this.entries.set(key, entry);
    this.bytes += sizeOf(key, text);
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get bytesHeld(): number {
    return this.bytes;
  }

  private fresh(entry: Entry): boolean {
    for (const collection of entry.reads) if (this.changes.changedAt(collection) > entry.renderedAt) return false;
    return true;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= sizeOf(key, entry.text);
  }
}

/** The encoded bytes, the key (two bytes per UTF-16 unit) and a fixed share for the entry itself. */
function sizeOf(key: string, text: Buffer): number {
  return text.length + 2 * key.length + 160;
}

/**
 * List counts remembered per log position: the read models only change when the
 * position moves, so the same filter at the same position has the same count and a
 * client paging through a large list pays for the count once. Entries of an older
 * position can never be asked for again once a newer one is seen, so they are
 * dropped then; the size bound keeps many distinct filters from growing it.
 */
export class CountCache {
  private position = -1;
  private readonly counts = new Map<string, number>();

  constructor(private readonly capacity = 1000) {}

  static key(collection: string, query: unknown): string {
    return `${collection}\u0000${JSON.stringify(query, (_: string, v: unknown) => (v instanceof RegExp ? `/${v.source}/${v.flags}` : v))}`;
  }

  get(position: number, key: string): number | undefined {
    return position === this.position ? this.counts.get(key) : undefined;
  }

  set(position: number, key: string, count: number): void {
    if (position < this.position) return;
    if (position > this.position) {
      this.counts.clear();
      this.position = position;
    }
    if (this.counts.size >= this.capacity) this.counts.delete(this.counts.keys().next().value as string);
    this.counts.set(key, count);
  }
}

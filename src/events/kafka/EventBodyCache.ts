import type { ChangeEvent } from '../ChangeEvent.js';

/**
 * The most recently used event bodies, as their JSON bytes, bounded by total bytes.
 * Each get parses a fresh copy, so callers may do what they like with the event.
 */
export class EventBodyCache {
  private readonly entries = new Map<number, Buffer>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  get(position: number): ChangeEvent | undefined {
    const body = this.entries.get(position);
    if (body === undefined) return undefined;
    this.entries.delete(position); // most recently used goes last
    this.entries.set(position, body);
    return JSON.parse(body.toString('utf8')) as ChangeEvent;
  }

  /** Keeps a copy of `json` of its own (a view or a pooled slice would pin a larger buffer). */
  put(position: number, json: Buffer): void {
    if (json.length > this.maxBytes || this.entries.has(position)) return;
    const copy = Buffer.allocUnsafeSlow(json.length);
    json.copy(copy);
    this.entries.set(position, copy);
    this.bytes += json.length;
    for (const [oldest, body] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= body.length;
    }
  }

  get byteLength(): number {
    return this.bytes;
  }
}

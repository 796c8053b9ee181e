/**
 * Whole answers to plain GETs, ready to send again: the status line's headers and the
 * body as bytes, kept for the read-model position they were made at. An answer is good
 * only while the read models have not moved (any committed change, a permission's or a
 * token's included, moves them), so nothing here needs invalidating by hand: a stale
 * entry is a miss, dropped when met. Bounded by bytes, least recently used first out.
 */
export interface CachedAnswer {
  /** The read models' position the answer was made at. */
  position: number;
  /** Response headers as sent, without the per-request ones (X-Request-ID, Date, Content-Length, Connection). */
  headers: Array<[string, string]>;
  body: Buffer;
  /** The route template the metrics count it under. */
  route: string;
  /** The username the request log names. */
  user: string | null;
}

/** Headers, request and key overhead an entry holds besides its body (a rough, generous figure). */
const ENTRY_OVERHEAD_BYTES = 1024;

export class AnswerCache {
  /** key → answer, in least-recently-used order (a Map keeps insertion order). */
  private readonly entries = new Map<string, CachedAnswer>();
  /** The request part of the keys (everything but the caller) held, with how many callers each: a quick "never seen". */
  private readonly requests = new Map<string, number>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** Whether any caller's answer to this request is kept (checked before authenticating). */
  holdsRequest(request: string): boolean {
    return this.requests.has(request);
  }

  /** The answer kept for this caller and request at `position`, or null (a stale one is dropped). */
  get(request: string, caller: string, position: number): CachedAnswer | null {
    const key = entryKey(request, caller);
    const entry = this.entries.get(key);
    if (!entry || entry.position !== position) {
      if (entry) this.delete(key, request, entry);
      this.misses++;
      return null;
    }
    // Most recently used goes last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    return entry;
  }

  set(request: string, caller: string, answer: CachedAnswer): void {
    const size = sizeOf(request, answer);
    if (!this.enabled || size > this.maxBytes / 8) return;
    const key = entryKey(request, caller);
    const previous = this.entries.get(key);
    if (previous) this.delete(key, request, previous);
    this.entries.set(key, answer);
    this.requests.set(request, (this.requests.get(request) ?? 0) + 1);
    this.bytes += size;
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldKey, requestOf(oldKey), old);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string, request: string, entry: CachedAnswer): void {
    this.entries.delete(key);
    this.bytes -= sizeOf(request, entry);
    const callers = (this.requests.get(request) ?? 1) - 1;
    if (callers > 0) this.requests.set(request, callers);
    else this.requests.delete(request);
  }
}

/** The caller goes first and cannot hold a NUL, so the request part is whatever follows the first NUL. */
function entryKey(request: string, caller: string): string {
  return `${caller}\0${request}`;
}

function requestOf(key: string): string {
  return key.slice(key.indexOf('\0') + 1);
}

function sizeOf(request: string, answer: CachedAnswer): number {
  return answer.body.length + request.length * 2 + ENTRY_OVERHEAD_BYTES;
}

import { foldCase } from '../caseFolding.js';
import type { Entry } from '../querySemantics/Entry.js';
import type { ReadDocument } from '../ReadStore.js';

/** Entries under one trigram: one entry, or several in ascending `seq` (insertion) order. */
type Posting = Entry | Entry[];

/** Shortest literal the index can narrow (shorter ones are checked on every document). */
export const TRIGRAM = 3;

/**
 * A trigram index of one plain field's text, case-folded at least as coarsely as the
 * case-insensitive regexes compare (caseFolding.ts): every run of three UTF-16 units of the folded value →
 * the documents holding it. A document matching a literal `$regex` (contains, starts or
 * ends with, equals; see regexLiteral.ts) holds every trigram of the folded literal, so
 * the intersection of their postings is a superset of the matches; the regex itself still
 * decides each candidate. Values: a string, or an array of strings (each element indexed);
 * a document whose value at the field is an array holding anything else is always a
 * candidate (`unsure`), other values (numbers, null, missing) never match a regex.
 *
 * Postings are arrays ordered by the entries' insertion sequence (a new document is
 * appended; a changed one is placed by binary search), which keeps them at a pointer per
 * document and trigram and lets two be intersected by merging.
 */
export class TrigramIndex {
  readonly postings = new Map<number, Posting>();
  /** Documents the index cannot judge (arrays of non-strings): always candidates. */
  readonly unsure = new Set<Entry>();
  /** Documents indexed (compared with the collection's size: a mismatch means rebuild). */
  size = 0;
  stale = true;

  constructor(readonly field: string) {}

  /** The distinct trigram keys of a folded string. */
  static keysOfText(folded: string, out: Set<number> = new Set()): Set<number> {
    for (let i = 0; i + TRIGRAM <= folded.length; i++)
      out.add(trigramKey(folded.charCodeAt(i), folded.charCodeAt(i + 1), folded.charCodeAt(i + 2)));
    return out;
  }

  /** Calls `each` for every trigram key of the document's text (a key may repeat); false when it goes to `unsure`. */
  private forEachKey(doc: ReadDocument, each: (k: number) => void): boolean {
    const v = doc[this.field];
    if (typeof v === 'string') {
      eachKeyOf(foldCase(v), each);
      return true;
    }
    if (!Array.isArray(v)) return true;
    for (const el of v) if (el !== null && typeof el === 'object') return false;
    for (const el of v) if (typeof el === 'string') eachKeyOf(foldCase(el), each);
    return true;
  }

  add(entry: Entry): void {
    this.size++;
    const sure = this.forEachKey(entry.doc, (k) => {
      const p = this.postings.get(k);
      if (p === undefined) this.postings.set(k, entry);
      else if (Array.isArray(p)) {
        const last = p[p.length - 1]!;
        if (last.seq < entry.seq) p.push(entry);
        else if (last !== entry) {
          const at = positionOf(p, entry.seq);
          if (p[at] !== entry) p.splice(at, 0, entry);
        }
      } else if (p !== entry) this.postings.set(k, p.seq < entry.seq ? [p, entry] : [entry, p]);
    });
    if (!sure) this.unsure.add(entry);
  }

  /** Takes out the entry as it was indexed from `doc`. */
  remove(entry: Entry, doc: ReadDocument): void {
    this.size--;
    const sure = this.forEachKey(doc, (k) => {
      const p = this.postings.get(k);
      if (p === undefined) return;
      if (Array.isArray(p)) {
        const at = positionOf(p, entry.seq);
        if (p[at] !== entry) return;
        p.splice(at, 1);
        if (p.length === 1) this.postings.set(k, p[0]!);
      } else if (p === entry) this.postings.delete(k);
    });
    if (!sure) this.unsure.delete(entry);
  }

  /** Re-indexes an entry whose document changed from `previous` to `entry.doc`. */
  update(entry: Entry, previous: ReadDocument): void {
    if (previous[this.field] === entry.doc[this.field]) return;
    this.remove(entry, previous);
    this.add(entry);
  }

  clear(): void {
    this.postings.clear();
    this.unsure.clear();
    this.size = 0;
  }

  rebuild(entries: Iterable<Entry>): void {
    this.clear();
    // Postings stay in sequence order only if entries come in it (the collection's Map order is).
    const list = [...entries].sort((a, b) => a.seq - b.seq);
    for (const e of list) this.add(e);
    this.stale = false;
  }

  /** Upper bound of the candidates for a folded literal (its rarest trigram's count); null when too short to narrow. */
  estimate(folded: string): number | null {
    if (folded.length < TRIGRAM) return null;
    let least = Infinity;
    for (const k of TrigramIndex.keysOfText(folded)) least = Math.min(least, sizeOf(this.postings.get(k)));
    return least + this.unsure.size;
  }

  /**
   * The documents holding every trigram of the folded literal (plus the unsure ones), each
   * once; null when the literal is too short to narrow.
   */
  candidates(folded: string): Entry[] | null {
    if (folded.length < TRIGRAM) return null;
    const postings: Entry[][] = [];
    for (const k of TrigramIndex.keysOfText(folded)) {
      const p = this.postings.get(k);
      if (p === undefined) return [...this.unsure];
      postings.push(Array.isArray(p) ? p : [p]);
    }
    postings.sort((a, b) => a.length - b.length);
    let out = postings[0]!;
    for (let i = 1; i < postings.length && out.length > 0; i++) out = intersect(out, postings[i]!);
    if (out === postings[0]) out = out.slice();
    for (const e of this.unsure) out.push(e);
    return out;
  }
}

function eachKeyOf(folded: string, each: (k: number) => void): void {
  for (let i = 0; i + TRIGRAM <= folded.length; i++)
    each(trigramKey(folded.charCodeAt(i), folded.charCodeAt(i + 1), folded.charCodeAt(i + 2)));
}

/** The first position in a posting whose entry's seq is not below `seq`. */
function positionOf(p: Entry[], seq: number): number {
  let lo = 0;
  let hi = p.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (p[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The entries of `small` also in `large` (both in seq order): by binary search when `small` is much smaller, else by merging. */
function intersect(small: Entry[], large: Entry[]): Entry[] {
  const out: Entry[] = [];
  if (small.length * 16 < large.length) {
    for (const e of small) if (large[positionOf(large, e.seq)] === e) out.push(e);
    return out;
  }
  let j = 0;
  for (const e of small) {
    while (j < large.length && large[j]!.seq < e.seq) j++;
    if (j < large.length && large[j] === e) out.push(e);
  }
  return out;
}

function sizeOf(p: Posting | undefined): number {
  return p === undefined ? 0 : Array.isArray(p) ? p.length : 1;
}

/** A trigram as a number: three 7-bit units packed below 2^21 (small integers), other trigrams above. */
function trigramKey(a: number, b: number, c: number): number {
  if ((a | b | c) < 128) return (a << 14) | (b << 7) | c;
  return 2 ** 21 + a * 2 ** 32 + b * 2 ** 16 + c;
}

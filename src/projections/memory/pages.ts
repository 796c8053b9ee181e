/**
 * Reading one page (`skip` matches left out, up to `want` = skip + limit reached) along
 * the access path the planner chose, with as little work as the path allows: a walk of
 * a sorted index stops when the page is full (a slice when every entry matches), a scan
 * in natural order stops early, a sorted page of up to 1,000 keeps a bounded sorted
 * buffer instead of sorting every match.
 */
import type { Entry } from '../querySemantics/Entry.js';
import {
  compareBySequence,
  insertBounded,
  type Keyed,
  keyedBy,
  makeComparator,
  type SortKeySpec,
} from '../querySemantics/sortOrder.js';
import type { ReadDocument } from '../ReadStore.js';
import type { Walk } from './QueryPlanner.js';

type Matches = (e: Entry) => boolean;

/** Largest page (skip + limit) kept in a bounded sorted buffer rather than sorted whole. */
const BOUNDED_PAGE = 1000;

/** A walk of a sorted index in the requested order, stopping when the page is full. */
export function walkPage(
  walk: Walk,
  matches: Matches,
  matchesAll: boolean,
  skip: number,
  want: number,
): ReadDocument[] {
  const { index, from, to, reverse } = walk;
  const entries = index.entries;
  if (matchesAll) {
    const a = reverse ? Math.max(from, to - want) : from + skip;
    const b = reverse ? to - skip : Math.min(to, from + want);
    const page = entries.slice(Math.max(a, from), Math.max(Math.min(b, to), from)).map((k) => k.entry.doc);
    return reverse ? page.reverse() : page;
  }
  const out: ReadDocument[] = [];
  let seen = 0;
  for (let i = reverse ? to - 1 : from; reverse ? i >= from : i < to; reverse ? i-- : i++) {
    const e = entries[i]!.entry;
    if (!matches(e)) continue;
    if (seen++ >= skip) out.push(e.doc);
    if (seen >= want) break;
  }
  return out;
}

/** Matches in insertion order: a scan of every document stops as soon as the page is complete. */
export function naturalOrderPage(
  all: Iterable<Entry>,
  candidates: Entry[] | null,
  matches: Matches,
  skip: number,
  want: number,
): ReadDocument[] {
  if (candidates === null) {
    const out: ReadDocument[] = [];
    let seen = 0;
    for (const e of all) {
      if (!matches(e)) continue;
      if (seen++ >= skip) out.push(e.doc);
      if (seen >= want) break;
    }
    return out;
  }
  const hits = candidates.filter(matches);
  hits.sort((a, b) => a.seq - b.seq);
  return hits.slice(skip, want).map((e) => e.doc);
}

/** Matches in the order of `spec`. */
export function sortedPage(
  source: Iterable<Entry>,
  matches: Matches,
  spec: SortKeySpec[],
  skip: number,
  want: number,
): ReadDocument[] {
  const cmp = makeComparator(spec);
  const keyed = keyedBy(spec);
  if (want <= BOUNDED_PAGE) {
    const buf: Keyed[] = [];
    for (const e of source) {
      if (!matches(e)) continue;
      const k = keyed(e);
      insertBounded(buf, k, want, cmp);
    }
    return buf.slice(skip).map((k) => k.entry.doc);
  }
  const all: Keyed[] = [];
  for (const e of source) if (matches(e)) all.push(keyed(e));
  all.sort(cmp);
  return all.slice(skip, want).map((k) => k.entry.doc);
}

/** The page (in the order of `spec`, natural order without one) and the count of every match, in one pass. */
export function pageWithCount(
  source: Iterable<Entry>,
  matches: Matches,
  spec: SortKeySpec[],
  skip: number,
  want: number,
): { count: number; docs: ReadDocument[] } {
  // with no sort, the page is in insertion order: the sequence number is the key
  const cmp = spec.length ? makeComparator(spec) : compareBySequence;
  const keyed = keyedBy(spec);
  let count = 0;
  const bounded = want <= BOUNDED_PAGE;
  const buf: Keyed[] = [];
  for (const e of source) {
    if (!matches(e)) continue;
    count++;
    if (want === 0) continue;
    const k = keyed(e);
    if (!bounded) {
      buf.push(k);
      continue;
    }
    insertBounded(buf, k, want, cmp);
  }
  if (!bounded) buf.sort(cmp);
  return { count, docs: buf.slice(skip, want).map((k) => k.entry.doc) };
}

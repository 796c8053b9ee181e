import { ValidationError } from '../../errors/requestErrors.js';

/**
 * Limit/offset pagination as NetBox does it: the default and maximum page sizes come
 * from PAGINATE_COUNT and MAX_PAGE_SIZE; next/previous are full links that keep every
 * other query parameter (re-encoded with keys sorted, as Django REST framework does).
 * Unlike NetBox, whose link back to the first page drops `offset`, both links always
 * carry `limit` and `offset` (`offset=0` for the first page): a client may read either
 * from any link.
 */
export interface Page {
  limit: number | null; // null: everything (only when MAX_PAGE_SIZE is 0)
  offset: number;
}

export function parsePage(query: URLSearchParams, paginateCount: number, maxPageSize: number): Page {
  const offset = nonNegativeInt(query.get('offset')) ?? 0;
  let limit = nonNegativeInt(query.get('limit')) ?? paginateCount;
  if (maxPageSize > 0) {
    if (limit === 0 || limit > maxPageSize) limit = maxPageSize;
    return { limit, offset };
  }
  return { limit: limit === 0 ? null : limit, offset };
}

function nonNegativeInt(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

function withParams(base: string, query: URLSearchParams, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(query);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  params.sort();
  const text = params.toString();
  return text ? `${base}?${text}` : base;
}

export function pageLinks(
  base: string,
  query: URLSearchParams,
  page: Page,
  count: number,
): { next: string | null; previous: string | null } {
  if (page.limit === null) return { next: null, previous: null };
  const limit = page.limit;
  const next =
    page.offset + limit < count
      ? withParams(base, query, { limit: String(limit), offset: String(page.offset + limit) })
      : null;
  const previous =
    page.offset > 0
      ? withParams(base, query, { limit: String(limit), offset: String(Math.max(page.offset - limit, 0)) })
      : null;
  return { next, previous };
}

/**
 * Cursor paging (NetBox 4.6): `?start=<id>&limit=N` returns the objects with id >= start in
 * id order, `next` carrying the id of the first object of the following page. Objects
 * created meanwhile get higher ids and deleted ones leave no gap to shift into, so a
 * client walking `next` never skips nor repeats an object that existed throughout.
 * NetBox leaves `count` out (null) in this mode. `start` and `offset` exclude each other.
 */
export function parseStart(query: URLSearchParams): number | null {
  const raw = query.get('start');
  if (raw === null || raw === '') return null;
  if (query.get('offset'))
    throw new ValidationError({ start: ['The start and offset parameters are mutually exclusive.'] });
  const n = nonNegativeInt(raw.trim());
  if (n === null) throw new ValidationError({ start: ['Enter a whole number.'] });
  return n;
}

export function cursorLinks(
  base: string,
  query: URLSearchParams,
  limit: number | null,
  nextStart: number | null,
): { next: string | null; previous: null } {
  if (nextStart === null) return { next: null, previous: null };
  const changes: Record<string, string | null> = { start: String(nextStart) };
  if (limit !== null) changes.limit = String(limit);
  return { next: withParams(base, query, changes), previous: null };
}

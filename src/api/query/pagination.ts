/**
 * Limit/offset pagination as NetBox does it: the default and maximum page sizes come
 * from PAGINATE_COUNT and MAX_PAGE_SIZE; next/previous are full links that keep every
 * other query parameter (re-encoded with keys sorted, as Django REST framework does).
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

export function pageLinks(base: string, query: URLSearchParams, page: Page, count: number): { next: string | null; previous: string | null } {
  if (page.limit === null) return { next: null, previous: null };
  const limit = page.limit;
  const next = page.offset + limit < count ? withParams(base, query, { limit: String(limit), offset: String(page.offset + limit) }) : null;
  let previous: string | null = null;
  if (page.offset > 0) {
    const back = page.offset - limit;
    previous = withParams(base, query, { limit: String(limit), offset: back > 0 ? String(back) : null });
  }
  return { next, previous };
}

import type { FilterReader } from './filterContext.js';

const SAVED_FILTER = 'extras.savedfilter';

/**
 * The query with the parameters of the saved filters it names merged in (`?filter=<slug>`,
 * `?filter_id=<id>`, each repeatable): a saved filter's values are appended to those of a
 * parameter already given. As in NetBox, a filter's enabled, shared and owner flags are
 * not consulted when it is applied, and a reference to no saved filter is ignored.
 */
export async function withSavedFilters(query: URLSearchParams, reader: FilterReader): Promise<URLSearchParams> {
  const slugs = query.getAll('filter').filter((v) => v !== '');
  const ids = query
    .getAll('filter_id')
    .filter((v) => /^\d+$/.test(v.trim()))
    .map((v) => Number(v.trim()));
  if (slugs.length === 0 && ids.length === 0) return query;
  const clauses = [...(slugs.length ? [{ slug: { $in: slugs } }] : []), ...(ids.length ? [{ id: { $in: ids } }] : [])];
  const saved = await reader.find(SAVED_FILTER, clauses.length === 1 ? clauses[0]! : { $or: clauses }, {
    sort: { id: 1 },
  });
  const merged = new URLSearchParams(query);
  for (const filter of saved) {
    const parameters = filter.parameters;
    if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) continue;
    for (const [name, value] of Object.entries(parameters as Record<string, unknown>)) {
      for (const item of Array.isArray(value) ? value : [value]) merged.append(name, parameterText(item));
    }
  }
  return merged;
}

/** A stored value as a query-string value, the way Python's str() writes it. */
function parameterText(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

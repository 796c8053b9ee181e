/**
 * One page of a list view: offset paging (count, next, previous) or cursor paging
 * (`start`), over a compiled filter. The count and the page come from the store's
 * findWithCount where it has one (MemoryReadStore: one pass over the matches, or the
 * indexes alone for an unfiltered count, one indexed equality or a pure range; no
 * document is copied), else from count + find (MongoReadStore: the collection's
 * metadata for an unfiltered count, countDocuments otherwise). A page ordered by a
 * relation is ordered by the related objects' own order (relationOrder.ts).
 */
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { Query, ReadDocument, ReadStore } from '../../projections/ReadStore.js';
import { andQueries } from './clauses.js';
import { cursorLinks, pageLinks, parsePage, parseStart } from './pagination.js';
import { relationOrderedPage, requestedRelations } from './relationOrder.js';
import { compileSort } from './sort.js';

export interface ListPage {
  count: number | null;
  next: string | null;
  previous: string | null;
  docs: ReadDocument[];
}

export interface ListPageRequest {
  store: ReadStore;
  definition: ModelDefinition;
  filter: Query;
  query: URLSearchParams;
  /** The list URL without query string, e.g. 'http://host/api/dcim/sites/'. */
  base: string;
  paginateCount: number;
  maxPageSize: number;
  brief: boolean;
}

export async function listPage(request: ListPageRequest): Promise<ListPage> {
  const { store, definition, filter, query, base } = request;
  const page = parsePage(query, request.paginateCount, request.maxPageSize);
  const start = parseStart(query);
  if (start !== null) {
    const limit = page.limit;
    const rows = await store.find(definition.key, andQueries([filter, { id: { $gte: start } }]), {
      sort: { id: 1 },
      limit: limit === null ? undefined : limit + 1,
    });
    const extra = limit !== null && rows.length > limit ? rows[limit]! : null;
    const docs = extra ? rows.slice(0, limit!) : rows;
    return { count: null, ...cursorLinks(base, query, limit, extra ? extra.id : null), docs };
  }
  const { count, docs } = await findInOrder(store, definition, filter, query.get('ordering'), {
    brief: request.brief,
    skip: page.offset,
    limit: page.limit ?? undefined,
  });
  return { count, ...pageLinks(base, query, page, count), docs };
}

/**
 * The matches in the order `?ordering=` asks (relations by the related objects' own
 * order), a slice of them and their count: what a list page and an export both show.
 */
export async function findInOrder(
  store: ReadStore,
  definition: ModelDefinition,
  filter: Query,
  ordering: string | null,
  { brief, skip, limit }: { brief: boolean; skip: number; limit: number | undefined },
): Promise<{ count: number; docs: ReadDocument[] }> {
  const options = { sort: compileSort(definition, ordering, { brief }), skip, limit };
  const relations = requestedRelations(definition, ordering, options.sort);
  if (relations.size) return relationOrderedPage(store, definition, filter, options.sort, relations, skip, limit);
  if (store.findWithCount) return store.findWithCount(definition.key, filter, options);
  const [count, docs] = await Promise.all([
    store.count(definition.key, filter),
    store.find(definition.key, filter, options),
  ]);
  return { count, docs };
}

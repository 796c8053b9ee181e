/**
 * /api/extras/content-types/: every content type netledger knows, read-only, with the
 * same ids object changes and the `*_type_id` filters use (src/models/contentTypes.ts).
 * Any authenticated caller may read it, whatever its object permissions; anonymous
 * callers get 403 even when login is not required, as NetBox answers. ?brief is ignored.
 */
import Router from '@koa/router';
import type { Context } from 'koa';

import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors/requestErrors.js';
import { type ContentTypeEntry, ContentTypes } from '../../models/contentTypes.js';
import { NOT_AUTHENTICATED, principalOf } from '../permissions.js';
import { pageLinks, parsePage } from '../query/pagination.js';
import type { Services } from '../Services.js';

export const CONTENT_TYPES_PATH = 'content-types';
const LIST = `/api/extras/${CONTENT_TYPES_PATH}/`;
const READ_ONLY_METHODS = 'GET, HEAD, OPTIONS';
const ORDERABLE = new Set(['id', 'app_label', 'model']);

export function contentTypesRoute(services: Services): Router {
  const router = new Router();
  const contentTypes = new ContentTypes(services.registry);
  router.get(LIST, (ctx) => {
    requireUser(ctx);
    const query = new URLSearchParams(ctx.querystring);
    const matching = sortEntries(filterEntries(contentTypes.all(), query), query.get('ordering'));
    const page = parsePage(query, services.config.paginateCount, services.config.maxPageSize);
    const shown =
      page.limit === null ? matching.slice(page.offset) : matching.slice(page.offset, page.offset + page.limit);
    const links = pageLinks(`${ctx.state.baseUrl}${ctx.path}`, query, page, matching.length);
    ctx.body = { count: matching.length, ...links, results: shown.map((entry) => render(ctx, contentTypes, entry)) };
  });
  router.get(`${LIST}:id/`, (ctx) => {
    requireUser(ctx);
    const raw = String(ctx.params.id);
    const key = /^\d+$/.test(raw) ? contentTypes.key(Number(raw)) : null;
    if (!key) throw new NotFoundError();
    ctx.body = render(
      ctx,
      contentTypes,
      contentTypes.all().find((entry) => entry.key === key)!,
    );
  });
  for (const [path, name] of [
    [LIST, 'Content Type List'],
    [`${LIST}:id/`, 'Content Type'],
  ] as const) {
    router.all(path, (ctx) => {
      ctx.set('Allow', READ_ONLY_METHODS);
      if (ctx.method === 'OPTIONS') {
        ctx.body = { name, description: '', renders: ['application/json'], parses: ['application/json'] };
        return;
      }
      // the permission check comes first: an anonymous caller gets 403, not 405
      requireUser(ctx);
      ctx.status = 405;
      ctx.body = { detail: `Method "${ctx.method}" not allowed.` };
    });
  }
  return router;
}

function requireUser(ctx: Context): void {
  if (!principalOf(ctx)) throw new PermissionDeniedError(NOT_AUTHENTICATED);
}

function render(ctx: Context, contentTypes: ContentTypes, entry: ContentTypeEntry): Record<string, unknown> {
  return {
    id: entry.id,
    url: `${ctx.state.baseUrl}${LIST}${entry.id}/`,
    display: contentTypes.display(entry.key),
    app_label: entry.app_label,
    model: entry.model,
  };
}

/**
 * NetBox's plain filters here: `id`, `app_label` and `model` each take one value (the
 * last), exact; `q` matches either half case-insensitively. Unknown parameters are ignored.
 */
export function filterEntries(entries: ContentTypeEntry[], query: URLSearchParams): ContentTypeEntry[] {
  const last = (name: string): string | null => {
    const values = query.getAll(name).filter((v) => v !== '');
    return values.length ? values[values.length - 1]! : null;
  };
  const id = last('id');
  if (id !== null && !/^\s*-?\d+(\.\d+)?\s*$/.test(id)) throw new ValidationError({ id: ['Enter a number.'] });
  const appLabel = last('app_label');
  const model = last('model');
  const q = last('q')?.trim().toLowerCase();
  return entries.filter(
    (entry) =>
      (id === null || entry.id === Number(id)) &&
      (appLabel === null || entry.app_label === appLabel) &&
      (model === null || entry.model === model) &&
      (!q || entry.app_label.toLowerCase().includes(q) || entry.model.toLowerCase().includes(q)),
  );
}

/** `?ordering=` over id, app_label and model ('-' reverses); by default app_label, then model. */
export function sortEntries(entries: ContentTypeEntry[], ordering: string | null): ContentTypeEntry[] {
  const terms = (ordering ?? '')
    .split(',')
    .map((term) => term.trim())
    .filter((term) => ORDERABLE.has(term.replace(/^-/, '')));
  const keys = terms.length ? terms : ['app_label', 'model'];
  return [...entries].sort((a, b) => {
    for (const term of keys) {
      const name = term.replace(/^-/, '') as 'id' | 'app_label' | 'model';
      const order = a[name] < b[name] ? -1 : a[name] > b[name] ? 1 : 0;
      if (order !== 0) return term.startsWith('-') ? -order : order;
    }
    return a.id - b.id;
  });
}

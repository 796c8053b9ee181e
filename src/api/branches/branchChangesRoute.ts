import Router from '@koa/router';
import type { Context } from 'koa';

import type { AuditService } from '../../audit/AuditService.js';
import { parseOrdering, selectChanges } from '../../audit/changeQuery.js';
import type { Branches } from '../../branches/Branches.js';
import { NotFoundError } from '../../errors/requestErrors.js';
import type { ChangeEvent } from '../../events/ChangeEvent.js';
import { compileReadableFilter } from '../audit/auditApi.js';
import { readableChanges } from '../audit/changePermission.js';
import { viewScope } from '../permissions.js';
import { pageLinks, parsePage } from '../query/pagination.js';
import { readModels } from '../requestReadModels.js';
import type { Services } from '../Services.js';

/**
 * The change records of a branch, with `X-NetBox-Branch` (without it the audit API answers):
 * - `/api/extras/object-changes/`: the branch's own changes (what its diff and merge are made
 *   of), newest first, with every filter and ordering of main's list (its compiler, over the
 *   positions of the branch's changes in the audit index);
 * - `/api/<app>/<model>/<id>/history/`: the object's changes on main up to the fork, then the
 *   branch's own, newest first.
 * Both show only the records the caller's `extras.view_objectchange` constraints select, as on main.
 */
export function branchChangesRoute(services: Services, branches: Branches, audit: AuditService): Router {
  const router = new Router();
  router.get('/api/extras/object-changes/', async (ctx, next) => {
    const target = ctx.state.branch;
    const view = target ? branches.view(target.id) : undefined;
    if (!view) return next();
    const readable = await readableChanges(ctx, services, audit);
    const query = new URLSearchParams(ctx.querystring);
    await audit.log.sync();
    // Main's filter set, ordering and permission narrowing, over the positions of the branch's own changes.
    const filter = await compileReadableFilter(services, audit, query, readable, { loggedOnly: false });
    const own = view.own.map((event) => event.position).filter((p) => p <= audit.log.head);
    filter.drivers = filter.drivers === null ? own : own.filter(inSorted(filter.drivers));
    const page = parsePage(query, services.config.paginateCount, services.config.maxPageSize);
    const ordering = parseOrdering(query.get('ordering'));
    const selection = selectChanges(audit.log.index, filter, ordering, page.offset, page.limit);
    await render(ctx, query, page, selection.count, await audit.log.events(selection.positions));
  });
  for (const definition of services.registry.all()) {
    router.get(`/api/${definition.app}/${definition.path}/:id/history/`, async (ctx, next) => {
      const target = ctx.state.branch;
      const view = target ? branches.view(target.id) : undefined;
      if (!view) return next();
      await viewScope(ctx, services.config, definition);
      const readable = await readableChanges(ctx, services, audit);
      const id = Number(ctx.params.id);
      if (!Number.isSafeInteger(id)) throw new NotFoundError();
      // Main's changes of the object up to the fork, then the branch's own.
      await audit.log.sync();
      const index = audit.log.index;
      const before = index
        .objectPositions(definition.key, id)
        .filter((p) => p <= view.fork && !index.isBranchChange(p));
      const own = view.own.filter((e) => e.objectType === definition.key && e.objectId === id);
      const all = [...(await audit.log.events(before)), ...own].reverse();
      if (all.length === 0 && !(await view.store.get(definition.key, id))) throw new NotFoundError();
      // The records the caller's permission selects, as on main.
      const events = readable ? all.filter((event) => event.position <= index.head && readable(event.position)) : all;
      const query = new URLSearchParams(ctx.querystring);
      const page = parsePage(query, services.config.paginateCount, services.config.maxPageSize);
      const shown = events.slice(page.offset, page.limit === null ? undefined : page.offset + page.limit);
      await render(ctx, query, page, events.length, shown);
    });
  }
  return router;

  async function render(
    ctx: Context,
    query: URLSearchParams,
    page: ReturnType<typeof parsePage>,
    count: number,
    shown: ChangeEvent[],
  ): Promise<void> {
    const { store, serializer } = readModels(services, ctx);
    const results = await audit.renderer.render(shown, { baseUrl: ctx.state.baseUrl, store, serializer });
    ctx.body = { count, ...pageLinks(`${ctx.state.baseUrl}${ctx.path}`, query, page, count), results };
  }
}

/** A test for membership of an ascending list of positions. */
function inSorted(sorted: number[]): (p: number) => boolean {
  const set = new Set(sorted);
  return (p) => set.has(p);
}

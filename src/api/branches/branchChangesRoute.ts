import Router from '@koa/router';
import type { Context } from 'koa';

import type { AuditService } from '../../audit/AuditService.js';
import type { Branches } from '../../branches/Branches.js';
import { NotFoundError, PermissionDeniedError } from '../../errors/requestErrors.js';
import type { ChangeEvent } from '../../events/ChangeEvent.js';
import { readableChanges } from '../audit/changePermission.js';
import { viewScope } from '../permissions.js';
import { pageLinks, parsePage } from '../query/pagination.js';
import { readModels } from '../requestReadModels.js';
import type { Services } from '../Services.js';

/**
 * The change records of a branch, with `X-NetBox-Branch` (without it the audit API answers):
 * - `/api/extras/object-changes/`: the branch's own changes (what its diff and merge are made
 *   of), newest first, with the list's commonest filters (`changed_object_type`,
 *   `changed_object_id`, `action`, `request_id`, `user_id`);
 * - `/api/<app>/<model>/<id>/history/`: the object's changes on main up to the fork, then the
 *   branch's own, newest first.
 * The branch's own changes are held in its view, not in the audit index, which is main's.
 */
export function branchChangesRoute(services: Services, branches: Branches, audit: AuditService): Router {
  const router = new Router();
  router.get('/api/extras/object-changes/', async (ctx, next) => {
    const target = ctx.state.branch;
    const view = target ? branches.view(target.id) : undefined;
    if (!view) return next();
    // As a past state: made of change records, so the caller must be able to read them all.
    if ((await readableChanges(ctx, services, audit)) !== null) throw new PermissionDeniedError();
    const query = new URLSearchParams(ctx.querystring);
    await respond(ctx, [...view.own].reverse().filter(matching(query)));
  });
  for (const definition of services.registry.all()) {
    router.get(`/api/${definition.app}/${definition.path}/:id/history/`, async (ctx, next) => {
      const target = ctx.state.branch;
      const view = target ? branches.view(target.id) : undefined;
      if (!view) return next();
      await viewScope(ctx, services.config, definition);
      if ((await readableChanges(ctx, services, audit)) !== null) throw new PermissionDeniedError();
      const id = Number(ctx.params.id);
      if (!Number.isSafeInteger(id)) throw new NotFoundError();
      // Main's changes of the object up to the fork, then the branch's own.
      await audit.log.sync();
      const index = audit.log.index;
      const before = index
        .objectPositions(definition.key, id)
        .filter((p) => p <= view.fork && !index.isBranchChange(p));
      const own = view.own.filter((e) => e.objectType === definition.key && e.objectId === id);
      const events = [...(await audit.log.events(before)), ...own].reverse();
      if (events.length === 0 && !(await view.store.get(definition.key, id))) throw new NotFoundError();
      await respond(ctx, events);
    });
  }
  return router;

  async function respond(ctx: Context, events: ChangeEvent[]): Promise<void> {
    const query = new URLSearchParams(ctx.querystring);
    const page = parsePage(query, services.config.paginateCount, services.config.maxPageSize);
    const shown = events.slice(page.offset, page.limit === null ? undefined : page.offset + page.limit);
    const { store, serializer } = readModels(services, ctx);
    const results = await audit.renderer.render(shown, { baseUrl: ctx.state.baseUrl, store, serializer });
    ctx.body = {
      count: events.length,
      ...pageLinks(`${ctx.state.baseUrl}${ctx.path}`, query, page, events.length),
      results,
    };
  }
}

function matching(query: URLSearchParams): (event: ChangeEvent) => boolean {
  const all = (name: string) => query.getAll(name).flatMap((v) => v.split(','));
  const types = all('changed_object_type');
  const ids = all('changed_object_id').map(Number);
  const actions = all('action');
  const requests = all('request_id');
  const users = all('user_id').map(Number);
  return (event) =>
    (types.length === 0 || types.includes(event.objectType)) &&
    (ids.length === 0 || ids.includes(event.objectId)) &&
    (actions.length === 0 || actions.includes(event.action)) &&
    (requests.length === 0 || requests.includes(event.requestId)) &&
    (users.length === 0 || users.includes(event.user?.id ?? NaN));
}

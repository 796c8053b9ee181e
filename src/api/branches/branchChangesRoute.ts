import Router from '@koa/router';

import type { AuditService } from '../../audit/AuditService.js';
import type { Branches } from '../../branches/Branches.js';
import { PermissionDeniedError } from '../../commands/errors.js';
import type { ChangeEvent } from '../../events/ChangeEvent.js';
import { readableChanges } from '../audit/changePermission.js';
import { pageLinks, parsePage } from '../query/pagination.js';
import { readModels } from '../requestReadModels.js';
import type { Services } from '../Services.js';

/**
 * `/api/extras/object-changes/` with `X-NetBox-Branch`: the branch's own changes (what its
 * diff and merge are made of), newest first, as object changes, with the list's commonest
 * filters (`changed_object_type`, `changed_object_id`, `action`, `request_id`, `user_id`).
 * Held in the branch's view, not in the audit index, which is main's. Without the header the
 * audit API answers.
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
    const events = [...view.own].reverse().filter(matching(query));
    const page = parsePage(query, services.config.paginateCount, services.config.maxPageSize);
    const shown = events.slice(page.offset, page.limit === null ? undefined : page.offset + page.limit);
    const { store, serializer } = readModels(services, ctx);
    const results = await audit.renderer.render(shown, { baseUrl: ctx.state.baseUrl, store, serializer });
    ctx.body = {
      count: events.length,
      ...pageLinks(`${ctx.state.baseUrl}${ctx.path}`, query, page, events.length),
      results,
    };
  });
  return router;
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

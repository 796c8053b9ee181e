import type { Context } from 'koa';

import { detailActionRoutes } from './detailActionRoutes.js';
import { detailViewRoutes } from './detailViewRoutes.js';
import { detailView, listView } from './modelReadViews.js';
import { bulkDeleteView, bulkUpdateView, createView, deleteView, updateView } from './modelWriteViews.js';
import { RoutesByModel } from './RoutesByModel.js';
import type { Services } from './Services.js';

const LIST_METHODS = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS';
const DETAIL_METHODS = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';
const READ_ONLY_METHODS = 'GET, HEAD, OPTIONS';

/** List and detail routes for every model of the registry: no per-model route code. */
export function modelRoutes(services: Services): RoutesByModel {
  const router = new RoutesByModel();
  for (const definition of services.registry.all()) {
    const list = `/api/${definition.app}/${definition.path}/`;
    const detail = `${list}:id/`;
    const writable = !definition.readOnly;
    router.get(list, (ctx) => listView(services, definition, ctx));
    router.get(detail, (ctx) => detailView(services, definition, ctx));
    if (writable) {
      router.post(list, (ctx) => createView(services, definition, ctx));
      router.put(list, (ctx) => bulkUpdateView(services, definition, ctx, 'put'));
      router.patch(list, (ctx) => bulkUpdateView(services, definition, ctx, 'patch'));
      router.delete(list, (ctx) => bulkDeleteView(services, definition, ctx));
      router.put(detail, (ctx) => updateView(services, definition, ctx, 'put'));
      router.patch(detail, (ctx) => updateView(services, definition, ctx, 'patch'));
      router.delete(detail, (ctx) => deleteView(services, definition, ctx));
    }
    router.all(list, (ctx) => methodNotAllowed(ctx, writable ? LIST_METHODS : READ_ONLY_METHODS));
    router.all(detail, (ctx) => methodNotAllowed(ctx, writable ? DETAIL_METHODS : READ_ONLY_METHODS));
  }
  detailActionRoutes(services, router);
  detailViewRoutes(services, router);
  return router;
}

function methodNotAllowed(ctx: Context, allow: string) {
  ctx.set('Allow', allow);
  if (ctx.method === 'OPTIONS') {
    ctx.status = 200;
    ctx.body = {};
    return;
  }
  ctx.status = 405;
  ctx.body = { detail: `Method "${ctx.method}" not allowed.` };
}

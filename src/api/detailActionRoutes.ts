/**
 * Routes of the detail sub-resources models declare (`detailActions`), e.g.
 * /api/ipam/prefixes/<id>/available-ips/: GET lists the parent's free space as a plain
 * array; POST hands it out to new objects through the ordinary write path.
 */
import type { Context } from 'koa';

import { allocateObjects } from '../commands/allocateObjects.js';
import type { AvailableEntry, DetailAction, NestedReference } from '../models/detailEndpoints.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import { lookupView } from '../projections/lookupView.js';
import { detailId } from './detailId.js';
import { modelViewName } from './face/views.js';
import { otherMethods } from './otherMethods.js';
import { viewScope, writeGuard, writeScope } from './permissions.js';
import { readModels } from './requestReadModels.js';
import type { RouteRegistry } from './RoutesByModel.js';
import type { Services } from './Services.js';
import { visibleObject } from './visibleObject.js';
import { runWrite, writeContext, writtenObjects } from './writePath.js';

const METHODS = 'GET, POST, HEAD, OPTIONS';

export function detailActionRoutes(services: Services, router: RouteRegistry): void {
  for (const parent of services.registry.all()) {
    for (const action of parent.detailActions ?? []) {
      const created = services.registry.get(action.creates);
      const path = `/api/${parent.app}/${parent.path}/:id/${action.path}/`;
      router.get(path, (ctx) => listView(services, parent, action, created, ctx));
      router.post(path, (ctx) => allocateView(services, parent, action, created, ctx));
      otherMethods(services, router, path, METHODS, modelViewName(created));
    }
  }
}

/** NetBox's limit of these listings: PAGINATE_COUNT by default, 0 for MAX_PAGE_SIZE, capped by it. */
function resultsLimit(services: Services, ctx: Context): number | null {
  const raw = new URLSearchParams(ctx.querystring).get('limit');
  const { paginateCount, maxPageSize } = services.config;
  let limit = raw !== null && /^\s*\+?\d+\s*$/.test(raw) ? Number(raw) : paginateCount;
  if (limit === 0) limit = maxPageSize;
  if (maxPageSize) limit = Math.min(limit, maxPageSize);
  return limit === 0 ? null : limit;
}

async function listView(
  services: Services,
  parent: ModelDefinition,
  action: DetailAction,
  created: ModelDefinition,
  ctx: Context,
) {
  ctx.set('Allow', METHODS);
  await viewScope(ctx, services.config, created);
  const object = await visibleObject(services, parent, ctx, detailId(ctx));
  const limit = action.allocator.shape.limited ? resultsLimit(services, ctx) : null;
  const entries = await action.allocator.available(object, lookupView(readModels(services, ctx).store), limit);
  ctx.body = await renderEntries(services, ctx, entries);
}

async function allocateView(
  services: Services,
  parent: ModelDefinition,
  action: DetailAction,
  created: ModelDefinition,
  ctx: Context,
) {
  ctx.set('Allow', METHODS);
  await writeScope(ctx, created, 'add');
  const id = detailId(ctx);
  // A retry recognised from the log answers what was written then, whatever the parent is now.
  if (!ctx.state.replayOf) await visibleObject(services, parent, ctx, id);
  // No body asks for one object with defaults (pynetbox's create() sends {}).
  const body: unknown = ctx.state.body ?? {};
  const bulk = Array.isArray(body);
  const requests = bulk ? body : [body];
  const context = writeContext(ctx, writeGuard(ctx, created, 'add'));
  const result = await runWrite(services, ctx, created, 'create', context, (tx) =>
    allocateObjects(services.commands, tx, parent.key, id, action, requests, { bulk }),
  );
  const rendered = await writtenObjects(services, created, ctx, result, { created: true });
  ctx.status = 201;
  ctx.body = bulk ? rendered : rendered[0];
}

function isReference(value: unknown): value is NestedReference {
  return value !== null && typeof value === 'object' && 'nested' in value;
}

/** Listing entries with their references rendered nested, each distinct object once. */
async function renderEntries(
  services: Services,
  ctx: Context,
  entries: AvailableEntry[],
): Promise<Record<string, unknown>[]> {
  const refs = entries.flatMap((entry) =>
    Object.values(entry).flatMap((value) =>
      isReference(value) && value.id !== null ? [{ object_type: value.nested, object_id: value.id }] : [],
    ),
  );
  const rendered = await readModels(services, ctx).serializer.referenced(refs, {
    baseUrl: ctx.state.baseUrl as string,
  });
  return entries.map((entry) =>
    Object.fromEntries(
      Object.entries(entry).map(([key, value]) => [
        key,
        isReference(value) ? (value.id === null ? null : (rendered.get(`${value.nested}:${value.id}`) ?? null)) : value,
      ]),
    ),
  );
}

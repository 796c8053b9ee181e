/** The generated write views of every model: create (one or a list), update and delete, of one object or in bulk. */
import type { Context } from 'koa';

import { createObjects } from '../commands/createObjects.js';
import { deleteObjects } from '../commands/deleteObjects.js';
import { updateObjects } from '../commands/updateObjects.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import { bulkItems, bulkPreconditions } from './bulkBody.js';
import { ifMatchPreconditions } from './conditionalWrite.js';
import { detailId } from './detailId.js';
import { assertInScope, withinScope, writeGuard, writeScope } from './permissions.js';
import { readModels } from './requestReadModels.js';
import type { Services } from './Services.js';
import { requireBody, runWrite, writeContext, writtenObjects } from './writePath.js';

export async function createView(services: Services, definition: ModelDefinition, ctx: Context) {
  await writeScope(ctx, definition, 'add');
  const body = requireBody(ctx);
  const bulk = Array.isArray(body);
  const items = bulk ? body : [body];
  const context = writeContext(ctx, writeGuard(ctx, definition, 'add'));
  const result = await runWrite(services, ctx, definition, 'create', context, (tx) =>
    createObjects(services.commands, tx, definition, items, { bulk }),
  );
  const rendered = await writtenObjects(services, definition, ctx, result, { created: true });
  ctx.status = 201;
  if (bulk) {
    ctx.body = rendered;
  } else {
    ctx.set('Location', services.serializer.url(definition, ctx.state.baseUrl, result.ids[0]));
    ctx.body = rendered[0];
  }
}

export async function updateView(services: Services, definition: ModelDefinition, ctx: Context, mode: 'put' | 'patch') {
  const scope = await writeScope(ctx, definition, 'change');
  const id = detailId(ctx);
  await assertInScope(readModels(services, ctx).store, definition, scope, id);
  const body = requireBody(ctx);
  const preconditions = ifMatchPreconditions(ctx, [id]);
  const result = await runWrite(
    services,
    ctx,
    definition,
    'update',
    writeContext(ctx, writeGuard(ctx, definition, 'change', [id])),
    (tx) =>
      updateObjects(services.commands, tx, definition, [{ id, input: body }], { mode, bulk: false, preconditions }),
  );
  const [rendered] = await writtenObjects(services, definition, ctx, result, { created: false });
  ctx.body = rendered;
}

/** A bulk write's objects (those in the caller's scope), its permission guard and its `etag` preconditions. */
async function bulkTargets(services: Services, definition: ModelDefinition, ctx: Context, action: 'change' | 'delete') {
  const scope = await writeScope(ctx, definition, action);
  const items = await withinScope(readModels(services, ctx).store, definition, scope, bulkItems(requireBody(ctx)));
  const ids = items.map((i) => i.id);
  return { items, ids, guard: writeGuard(ctx, definition, action, ids), preconditions: bulkPreconditions(ctx, items) };
}

export async function bulkUpdateView(
  services: Services,
  definition: ModelDefinition,
  ctx: Context,
  mode: 'put' | 'patch',
) {
  const { items, guard, preconditions } = await bulkTargets(services, definition, ctx, 'change');
  const result = await runWrite(services, ctx, definition, 'update', writeContext(ctx, guard), (tx) =>
    updateObjects(services.commands, tx, definition, items, { mode, bulk: true, preconditions }),
  );
  ctx.body = await writtenObjects(services, definition, ctx, result, { created: false });
}

export async function deleteView(services: Services, definition: ModelDefinition, ctx: Context) {
  const scope = await writeScope(ctx, definition, 'delete');
  const id = detailId(ctx);
  if (!ctx.state.replayOf) await assertInScope(readModels(services, ctx).store, definition, scope, id);
  const preconditions = ifMatchPreconditions(ctx, [id]);
  await runWrite(
    services,
    ctx,
    definition,
    'delete',
    writeContext(ctx, writeGuard(ctx, definition, 'delete', [id])),
    (tx) => deleteObjects(services.commands, tx, definition, [id], { bulk: false, preconditions }),
  );
  ctx.status = 204;
}

export async function bulkDeleteView(services: Services, definition: ModelDefinition, ctx: Context) {
  const { ids, guard, preconditions } = await bulkTargets(services, definition, ctx, 'delete');
  await runWrite(services, ctx, definition, 'delete', writeContext(ctx, guard), (tx) =>
    deleteObjects(services.commands, tx, definition, ids, { bulk: true, preconditions }),
  );
  ctx.status = 204;
}

/**
 * The object a detail sub-resource hangs from (/api/<app>/<path>/<id>/...), looked up as
 * NetBox's restricted querysets do: one the caller may not see is not found.
 */
import type { Context } from 'koa';

import { NotFoundError, PermissionDeniedError } from '../errors/requestErrors.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ReadDocument } from '../projections/ReadStore.js';
import { viewScope } from './permissions.js';
import { and } from './query/ListQueryCompiler.js';
import { readModels } from './requestReadModels.js';
import type { Services } from './Services.js';

/** The object with this id (or the first matching this query) that the caller may see; else 404. */
export async function visibleObject(
  services: Services,
  definition: ModelDefinition,
  ctx: Context,
  which: number | Record<string, unknown>,
): Promise<ReadDocument> {
  let scope;
  try {
    scope = await viewScope(ctx, services.config, definition);
  } catch (error) {
    if (error instanceof PermissionDeniedError) throw new NotFoundError();
    throw error;
  }
  const [found] = await readModels(services, ctx).store.find(
    definition.key,
    and(scope, typeof which === 'number' ? { id: which } : which),
    { limit: 1 },
  );
  if (!found) throw new NotFoundError();
  return found;
}

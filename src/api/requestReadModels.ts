import type { Context } from 'koa';

import type { ReadStore } from '../projections/ReadStore.js';
import type { Serializer } from './Serializer.js';
import type { Services } from './Services.js';

/**
 * The read models a request reads: the live ones, or those a middleware chose (`?as_of=`'s
 * past state, the branch `X-NetBox-Branch` names), with a serializer reading the same.
 */
export function readModels(services: Services, ctx: Context): { store: ReadStore; serializer: Serializer } {
  const store: ReadStore | undefined = ctx.state.readStore;
  if (!store || store === services.store) return { store: services.store, serializer: services.serializer };
  return { store, serializer: services.serializer.using(store) };
}

import type { Context } from 'koa';

import type { Config } from '../config.js';
import { viewScope } from './permissions.js';
import type { ListQueryRequest } from './query/ListQueryCompiler.js';

/** A koa request as the query layer sees it: its parameters, who asks, and what they may read. */
export function listQueryRequest(ctx: Context, config: Config, parameters: URLSearchParams): ListQueryRequest {
  return {
    parameters,
    requesterId: ctx.state.eventUser?.id ?? null,
    viewScope: (definition) => viewScope(ctx, config, definition),
  };
}

/**
 * A /graphql/ request whose body the JSON reader refuses (not JSON, not UTF-8, too large,
 * too slow, nested too deeply, another media type) answers as GraphQL over HTTP does: the
 * same status with `{"errors": [{"message"}]}`, which GraphQL clients show, rather than
 * REST's `{"detail"}`, which they do not read. Mounted before the JSON reader.
 */
import type { Context, Next } from 'koa';

import { ValidationError } from '../../errors/requestErrors.js';
import { validationMessage } from './graphqlRoutes.js';

const BODY_REFUSALS = new Set([400, 408, 413, 415]);

export async function graphqlBodyErrors(ctx: Context, next: Next): Promise<void> {
  if (ctx.path !== '/graphql' && ctx.path !== '/graphql/') return next();
  try {
    await next();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    ctx.status = 400;
    ctx.body = { errors: [{ message: validationMessage(error.body) }] };
    return;
  }
  const body = ctx.body as { detail?: unknown } | null | undefined;
  if (BODY_REFUSALS.has(ctx.status) && body?.constructor === Object && typeof body.detail === 'string') {
    ctx.body = { errors: [{ message: body.detail }] };
  }
}

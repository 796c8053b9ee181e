/**
 * /api/users/config/: the caller's own preferences (NetBox's UserConfigViewSet). GET
 * answers them, PATCH deep-merges the body into them and answers the result. Any
 * authenticated caller, whatever its object permissions; a read-only token may PATCH too,
 * as NetBox does not check write_enabled here.
 */
import Router from '@koa/router';
import type { Context } from 'koa';

import { updateUserConfig, userConfigOf } from '../../commands/userConfig.js';
import { NotFoundError, PermissionDeniedError } from '../../errors/requestErrors.js';
import { otherMethods } from '../otherMethods.js';
import { NOT_AUTHENTICATED, principalOf } from '../permissions.js';
import type { Services } from '../Services.js';

export const USER_CONFIG_PATH = 'config';
const ROUTE = `/api/users/${USER_CONFIG_PATH}/`;

export function userConfigRoute(services: Services): Router {
  const router = new Router();
  router.get(ROUTE, (ctx) => readConfig(services, ctx));
  router.patch(ROUTE, (ctx) => patchConfig(services, ctx));
  otherMethods(services, router, ROUTE, 'GET, PATCH, HEAD, OPTIONS', 'User Config');
  return router;
}

function callerId(ctx: Context): number {
  const principal = principalOf(ctx);
  if (!principal) throw new PermissionDeniedError(NOT_AUTHENTICATED);
  return principal.user.id;
}

async function readConfig(services: Services, ctx: Context): Promise<void> {
  const user = await services.store.get('auth.user', callerId(ctx));
  if (!user) throw new NotFoundError();
  ctx.body = userConfigOf(user);
}

async function patchConfig(services: Services, ctx: Context): Promise<void> {
  const id = callerId(ctx);
  if (ctx.state.replayOf) {
    // a retry with the same Idempotency-Key: the first request's merge is already applied
    return readConfig(services, ctx);
  }
  const { requestId, eventUser, idempotency, webhookDepth } = ctx.state;
  const context = { requestId, user: eventUser ?? null, idempotency, webhookDepth };
  const { result } = await services.coordinator.execute(context, (tx) => updateUserConfig(tx, id, ctx.state.body));
  ctx.body = result;
}

/**
 * What a non-model endpoint answers to the methods it does not serve: OPTIONS describes
 * the view (NetBox's metadata without actions; 403 to anonymous callers when login is
 * required), anything else is 405. Both name the methods it allows.
 */
import { PermissionDeniedError } from '../errors/requestErrors.js';
import { PARSES, RENDERS } from './face/options.js';
import { NOT_AUTHENTICATED, principalOf } from './permissions.js';
import type { RouteRegistry } from './RoutesByModel.js';
import type { Services } from './Services.js';

export function otherMethods(
  services: Services,
  router: RouteRegistry,
  path: string,
  allow: string,
  viewName: string,
): void {
  router.options(path, (ctx) => {
    if (services.config.loginRequired && !principalOf(ctx)) throw new PermissionDeniedError(NOT_AUTHENTICATED);
    ctx.set('Allow', allow);
    ctx.body = { name: viewName, description: '', renders: RENDERS, parses: PARSES };
  });
  router.all(path, (ctx) => {
    ctx.set('Allow', allow);
    ctx.status = 405;
    ctx.body = { detail: `Method "${ctx.method}" not allowed.` };
  });
}

import type { Context, Next } from 'koa';
import { authenticateToken } from '../../auth/authenticateToken.js';
import type { Services } from '../Services.js';

/** Resolves the caller from the Authorization header; a bad token is 403 before any view runs. */
export function authenticate(services: Services) {
  return async (ctx: Context, next: Next) => {
    const result = await authenticateToken(ctx.get('Authorization') || undefined, services.coordinator.view(), services.commands.secrets);
    if ('error' in result) {
      ctx.status = 403;
      ctx.body = { detail: result.error };
      return;
    }
    ctx.state.principal = result.principal;
    if (result.principal) ctx.state.eventUser = { id: result.principal.user.id, username: String(result.principal.user.username) };
    await next();
  };
}

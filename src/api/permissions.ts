import type { Context } from 'koa';
import { PermissionDeniedError } from '../commands/errors.js';
import type { Config } from '../config.js';
import type { Principal } from '../auth/authenticateToken.js';
import type { ModelDefinition } from '../models/types.js';
import type { Query } from '../projections/ReadStore.js';

const NOT_AUTHENTICATED = 'Authentication credentials were not provided.';

/** Models that EXEMPT_VIEW_PERMISSIONS = ['*'] does not open up (NetBox's own exclusions). */
const NEVER_EXEMPT = new Set(['auth.user', 'auth.group', 'users.objectpermission', 'users.token']);

function isExempt(config: Config, definition: ModelDefinition): boolean {
  const list = config.exemptViewPermissions;
  return list.includes(definition.key) || (list.includes('*') && !NEVER_EXEMPT.has(definition.key));
}

/**
 * Reads: a token, or a model listed in EXEMPT_VIEW_PERMISSIONS. Writes: a write-enabled
 * token of a superuser (object permissions for other users arrive with the
 * authorisation work; until then they may read only).
 */
/** The rows of a model the caller may read, as a query to AND into every read ({} for all). */
export function viewScope(ctx: Context, config: Config, definition: ModelDefinition): Query {
  const principal = ctx.state.principal as Principal | null;
  if (principal) return {};
  if (config.loginRequired || !isExempt(config, definition)) throw new PermissionDeniedError(NOT_AUTHENTICATED);
  return {};
}

export function assertMayWrite(ctx: Context): Principal {
  const principal = ctx.state.principal as Principal | null;
  if (!principal) throw new PermissionDeniedError(NOT_AUTHENTICATED);
  if (!principal.writeEnabled || !principal.isSuperuser) throw new PermissionDeniedError();
  return principal;
}

import type { Context } from 'koa';
import { Query as MingoQuery } from 'mingo';

import type { Principal } from '../auth/authenticateToken.js';
import type { WriteContext } from '../commands/WriteCoordinator.js';
import type { Config } from '../config.js';
import { NotFoundError, PermissionDeniedError } from '../errors/requestErrors.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import type { LookupView } from '../models/lookupView.js';
import { MATCH_NOTHING } from '../models/matchNothing.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { Query, ReadStore } from '../projections/ReadStore.js';

/**
 * NetBox's object permissions (netbox/utilities/querysets.py `restrict`, the API viewsets) for the generated model views:
 *  1. a model-level gate per action (view/add/change/delete), 403 when no enabled
 *     permission grants it (constraints ignored at this step);
 *  2. narrowing: reads are ANDed with the constraints of `view`; a change or delete
 *     of an object outside its constraints is 404, bulk ones skip such ids;
 *  3. the post-write check, inside the write decision: the result of an add or change
 *     must still match the constraints, else 403 and nothing is written.
 * Superusers pass everything; tokens are visible to their owner only (and superusers).
 */

export const NOT_AUTHENTICATED = 'Authentication credentials were not provided.';
export const GRANT_DENIED = 'This user does not have permission to create tokens for other users.';

export type Action = 'view' | 'add' | 'change' | 'delete';
export type WriteAction = Exclude<Action, 'view'>;

const TOKEN = 'users.token';

export function isExempt(config: Config, definition: ModelDefinition): boolean {
  const list = config.exemptViewPermissions;
  return list.includes(definition.key) || (list.includes('*') && definition.exemptable !== false);
}

export function principalOf(ctx: Context): Principal | null {
  return (ctx.state.principal as Principal | null | undefined) ?? null;
}

/** The view constraints are resolved in (lookups across relations). */
function lookupView(ctx: Context): LookupView {
  const view = ctx.state.authView as LookupView | undefined;
  if (!view) throw new Error('authentication middleware did not run');
  return view;
}

/** Non-superusers only ever reach their own tokens (NetBox's TokenViewSet.get_queryset). */
function ownTokens(principal: Principal, definition: ModelDefinition): Query {
  return definition.key === TOKEN && !principal.isSuperuser ? { user: { $eq: principal.user.id } } : {};
}

function both(a: Query, b: Query): Query {
  if (Object.keys(a).length === 0) return b;
  if (Object.keys(b).length === 0) return a;
  return { $and: [a, b] };
}

/** The rows of a model the caller may read, as a query to AND into every read ({} for all). */
export async function viewScope(ctx: Context, config: Config, definition: ModelDefinition): Promise<Query> {
  const principal = principalOf(ctx);
  if (!principal) {
    if (config.loginRequired || !isExempt(config, definition)) throw new PermissionDeniedError(NOT_AUTHENTICATED);
    return definition.key === TOKEN ? MATCH_NOTHING : {};
  }
  if (principal.isSuperuser) return {};
  const own = ownTokens(principal, definition);
  if (isExempt(config, definition)) return own;
  const scope = await principal.permissions.scope(definition, 'view', lookupView(ctx));
  if (scope === null) throw new PermissionDeniedError();
  return both(scope, own);
}

/**
 * The model-level gate of a write: 403 for anonymous callers, read-only tokens and
 * users without the action's permission. Returns the objects the action may touch.
 */
export async function writeScope(ctx: Context, definition: ModelDefinition, action: WriteAction): Promise<Query> {
  const principal = principalOf(ctx);
  if (!principal) throw new PermissionDeniedError(NOT_AUTHENTICATED);
  if (!principal.writeEnabled) throw new PermissionDeniedError();
  if (principal.isSuperuser) return {};
  const scope = await principal.permissions.scope(definition, action, lookupView(ctx));
  if (scope === null) throw new PermissionDeniedError();
  return both(scope, ownTokens(principal, definition));
}

/** Model-level only (constraints ignored): may the caller perform `action` on this model at all? (OPTIONS) */
export function mayPerform(ctx: Context, config: Config, definition: ModelDefinition, action: Action): boolean {
  const principal = principalOf(ctx);
  if (!principal) return action === 'view' && !config.loginRequired && isExempt(config, definition);
  if (action !== 'view' && !principal.writeEnabled) return false;
  if (principal.isSuperuser) return true;
  if (action === 'view' && isExempt(config, definition)) return true;
  return principal.permissions.has(definition.key, action);
}

function isUnrestricted(scope: Query): boolean {
  return Object.keys(scope).length === 0;
}

/** A detail change/delete outside the action's constraints is 404, like an unknown id. */
export async function assertInScope(
  store: ReadStore,
  definition: ModelDefinition,
  scope: Query,
  id: number,
): Promise<void> {
  if (isUnrestricted(scope)) return;
  const [doc] = await store.find(definition.key, both(scope, { id: { $eq: id } }), { limit: 1 });
  if (!doc) throw new NotFoundError();
}

/** Bulk changes and deletes silently skip the ids outside the action's constraints. */
export async function withinScope<T extends { id: number }>(
  store: ReadStore,
  definition: ModelDefinition,
  scope: Query,
  items: T[],
): Promise<T[]> {
  if (isUnrestricted(scope) || items.length === 0) return items;
  const ids = [...new Set(items.map((i) => i.id))];
  const allowed = new Set((await store.find(definition.key, both(scope, { id: { $in: ids } }))).map((d) => d.id));
  return items.filter((i) => allowed.has(i.id));
}

/**
 * The post-write check, run by the WriteCoordinator for every recorded change before the
 * request commits (so a refusal appends nothing). Only the changes the request was
 * asked for are checked — the created objects of the model (add) or the targeted ids
 * (change/delete) — not the updates and deletes that cascade from them, as in NetBox.
 * Constraints are re-resolved against the write's own view.
 */
export function writeGuard(
  ctx: Context,
  definition: ModelDefinition,
  action: WriteAction,
  targets?: number[],
): WriteContext['authorize'] {
  return guardWrites(principalOf(ctx), definition, action, targets);
}

/** writeGuard for a principal that is not the request's (token provisioning checks the user who proved a password). */
export function guardWrites(
  principal: Principal | null,
  definition: ModelDefinition,
  action: WriteAction,
  targets?: number[],
): WriteContext['authorize'] {
  if (!principal) {
    return async () => {
      throw new PermissionDeniedError(NOT_AUTHENTICATED);
    };
  }
  if (principal.isSuperuser) return undefined;
  const wanted = action === 'add' ? 'create' : action === 'change' ? 'update' : 'delete';
  const targeted = targets ? new Set(targets) : null;
  let matchers: Promise<{ before: MingoQuery; after: MingoQuery }> | null = null;
  return async (event: ChangeEvent, view: LookupView) => {
    if (event.objectType !== definition.key || event.action !== wanted) return;
    if (targeted && !targeted.has(event.objectId)) return;
    matchers ??= (async () => {
      const scope = (await principal.permissions.scope(definition, action, view)) ?? MATCH_NOTHING;
      // The object is found through the owner filter; the result is checked against the
      // constraints alone (NetBox's _validate_objects uses the restricted queryset, not get_queryset).
      return { before: new MingoQuery(both(scope, ownTokens(principal, definition))), after: new MingoQuery(scope) };
    })();
    const { before, after } = await matchers;
    if (event.prechange && !before.test({ ...event.prechange, id: event.objectId })) throw new NotFoundError();
    if (event.postchange && definition.key === TOKEN && event.postchange.user !== principal.user.id) {
      if (!principal.permissions.has(TOKEN, 'grant')) throw new PermissionDeniedError(GRANT_DENIED);
    }
    if (event.postchange && !after.test({ ...event.postchange, id: event.objectId })) throw new PermissionDeniedError();
  };
}

/**
 * For endpoints outside the model permissions (e.g. a revert of a whole request):
 * an authenticated, write-enabled superuser.
 */
export function assertMayWrite(ctx: Context): Principal {
  const principal = principalOf(ctx);
  if (!principal) throw new PermissionDeniedError(NOT_AUTHENTICATED);
  if (!principal.writeEnabled || !principal.isSuperuser) throw new PermissionDeniedError();
  return principal;
}

/**
 * /api/extras/reports/ and /api/extras/scripts/: NetBox's reports and scripts are Python
 * classes installed beside it; netledger has none, so both lists are empty JSON arrays
 * (these views are not paginated) and every report or script named is unknown (404).
 * Reading needs an authenticated caller only when login is required; running one is
 * checked against the run permission first, as NetBox does, then refused as unknown.
 */
import Router from '@koa/router';
import type { Context } from 'koa';

import { NotFoundError, PermissionDeniedError } from '../../errors/requestErrors.js';
import { NOT_AUTHENTICATED, principalOf } from '../permissions.js';
import type { Services } from '../Services.js';

export const REPORTS_PATH = 'reports';
export const SCRIPTS_PATH = 'scripts';

interface Runnable {
  path: string;
  /** NetBox's permission to run one, '<app>.<action>_<model>' split. */
  model: string;
  action: string;
  noun: string;
  viewName: string;
  /** The URL segment that runs one, under its detail URL ('' : the detail URL itself). */
  runPath: string;
}

const RUNNABLES: Runnable[] = [
  { path: REPORTS_PATH, model: 'extras.report', action: 'run', noun: 'reports', viewName: 'Report', runPath: 'run/' },
  { path: SCRIPTS_PATH, model: 'extras.script', action: 'run', noun: 'scripts', viewName: 'Script', runPath: '' },
];

export function reportsScriptsRoute(services: Services): Router {
  const router = new Router();
  for (const runnable of RUNNABLES) {
    const list = `/api/extras/${runnable.path}/`;
    const detail = `${list}:id/`;
    const run = `${detail}${runnable.runPath}`;
    router.get(list, (ctx) => {
      mayRead(services, ctx);
      ctx.body = [];
    });
    router.get(detail, (ctx) => {
      mayRead(services, ctx);
      throw new NotFoundError();
    });
    router.post(run, (ctx) => {
      mayRun(ctx, runnable);
      throw new NotFoundError();
    });
    const allowed: Array<[string, string, string]> = [
      [list, 'GET, HEAD, OPTIONS', `${runnable.viewName} List`],
      [detail, runnable.runPath ? 'GET, HEAD, OPTIONS' : 'GET, POST, HEAD, OPTIONS', runnable.viewName],
    ];
    if (runnable.runPath) allowed.push([run, 'POST, OPTIONS', runnable.viewName]);
    for (const [path, allow, name] of allowed) {
      router.all(path, (ctx) => {
        ctx.set('Allow', allow);
        if (ctx.method === 'OPTIONS') {
          mayRead(services, ctx);
          ctx.body = { name, description: '', renders: ['application/json'], parses: ['application/json'] };
          return;
        }
        mayRead(services, ctx);
        ctx.status = 405;
        ctx.body = { detail: `Method "${ctx.method}" not allowed.` };
      });
    }
  }
  return router;
}

/** An authenticated caller, or anyone while login is not required. */
function mayRead(services: Services, ctx: Context): void {
  if (services.config.loginRequired && !principalOf(ctx)) throw new PermissionDeniedError(NOT_AUTHENTICATED);
}

/** The run permission (superusers hold every one); the token's write flag is not consulted, as in NetBox. */
function mayRun(ctx: Context, runnable: Runnable): void {
  const principal = principalOf(ctx);
  if (!principal) throw new PermissionDeniedError(NOT_AUTHENTICATED);
  if (!principal.isSuperuser && !principal.permissions.has(runnable.model, runnable.action)) {
    throw new PermissionDeniedError(`This user does not have permission to run ${runnable.noun}.`);
  }
}

import type { Middleware } from 'koa';

import type { Services } from '../Services.js';
import { openBranchPast } from './branchPastStore.js';

export const BRANCH_HEADER = 'X-NetBox-Branch';

/**
 * `X-NetBox-Branch: <schema_id>` (netbox-branching's header, which pynetbox's
 * `activate_branch` sends): the request reads the branch's view and decides its writes
 * there. A header naming no open branch is a 400, never an answer from main. Only the
 * registry's models are branched: a write elsewhere (users, tokens, permissions, the
 * branches themselves, a revert) with the header is refused rather than made on main.
 */
export function branchHeader(services: Services): Middleware {
  return async (ctx, next) => {
    const schemaId = ctx.get(BRANCH_HEADER).trim();
    if (!schemaId) return next();
    const refuse = (detail: string) => {
      ctx.status = 400;
      ctx.body = { detail };
    };
    const view = services.branches?.view(schemaId);
    if (!view)
      return refuse(`${BRANCH_HEADER}: no open branch has the schema ID "${schemaId}" (unknown, merged or archived).`);
    const reads = ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS';
    const asOf = new URLSearchParams(ctx.querystring).getAll('as_of').filter((v) => v !== '');
    // The branching API is about branches, not inside one (a client with a branch active manages them too).
    if (ctx.path.startsWith('/api/plugins/branching/')) return next();
    if (!branched(services, ctx.path, reads))
      return refuse(
        `${ctx.method} ${ctx.path} is not available inside a branch (only the registry's models are branched).`,
      );
    if (!reads) services.branches!.assertIdle(schemaId); // a merge under way: a write now would be left out of it
    ctx.state.readStore = view.store;
    ctx.state.branch = view.target();
    if (asOf.length > 0) {
      // The branch as it was then (the audit API's ?as_of= then leaves the request to it).
      if (!reads || !services.audit) return refuse('?as_of= inside a branch is served to reads, by the audit side.');
      const past = await openBranchPast(ctx, services, services.audit, view, asOf[asOf.length - 1]!);
      if (!past) return;
      ctx.state.readStore = past;
    }
    ctx.set(BRANCH_HEADER, schemaId);
    return next();
  };
}

/** Model routes (and GraphQL's reads) of models that are not access control: what a branch holds. */
function branched(services: Services, path: string, reads: boolean): boolean {
  if (path === '/graphql/') return true; // reads only, whatever the method
  if (path === '/api/extras/object-changes/') return reads; // the branch's own changes (branchChangesRoute)
  if (path === '/api/' || path === '/api/status/') return reads;
  const match = /^\/api\/([^/]+)\/([^/]+)\//.exec(path);
  if (/^\/api\/[^/]+\/[^/]+\/\d+\/history\/$/.test(path) && !reads) return false;
  if (!match) return false;
  const definition = services.registry.byPath(match[1]!, match[2]!);
  if (!definition) return false;
  return reads || !definition.accessControl;
}

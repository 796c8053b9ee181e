import Router from '@koa/router';
import type { Context } from 'koa';

import {
  archiveBranch,
  createBranch,
  deleteBranch,
  markMerged,
  syncBranch,
  updateBranch,
} from '../../branches/branchCommands.js';
import { branchDiffs } from '../../branches/branchDiff.js';
import type { Branches } from '../../branches/Branches.js';
import { branchEvents } from '../../branches/branchEvents.js';
import { BRANCH, type BranchRecord } from '../../branches/branchRecord.js';
import { BranchConflictError, mergeBranch } from '../../branches/mergeBranch.js';
import { mainValuesToApply, syncWithMain } from '../../branches/syncWithMain.js';
import type { WriteContext, WriteTransaction } from '../../commands/WriteCoordinator.js';
import { ConflictError, NotFoundError, PermissionDeniedError, ValidationError } from '../../errors/requestErrors.js';
import type { ChangeEvent } from '../../events/ChangeEvent.js';
import { lookupView } from '../../projections/lookupView.js';
import { NOT_AUTHENTICATED, principalOf } from '../permissions.js';
import { compileFilter } from '../query/compileFilter.js';
import { pageLinks, parsePage } from '../query/pagination.js';
import type { Services } from '../Services.js';
import { BRANCH_SHAPE, branchOptions } from './branchMetadata.js';
import { BRANCHES_PATH, CHANGES_PATH, EVENTS_PATH, nestedBranch, renderBranch, renderDiff } from './renderBranch.js';

type BranchAction = 'view' | 'add' | 'change' | 'delete' | 'sync' | 'merge' | 'revert' | 'archive';

/**
 * netbox-branching's REST API (`/api/plugins/branching/`): branches (CRUD), their actions
 * (POST `branches/<id>/sync|merge|revert|archive/` with `{"commit": true}`; `false` is a dry
 * run: the same decision, nothing written) and the per-object diffs (`changes/`). Branches
 * are objects of main's log (branchRecord.ts); the actions are requests of the single writer.
 */
export function branchRoutes(services: Services, branches: Branches): Router {
  const router = new Router();
  const detail = `${BRANCHES_PATH}:id/`;
  router.get('/api/plugins/branching/', (ctx) => {
    const base = `${ctx.state.baseUrl}/api/plugins/branching/`;
    ctx.body = { branches: `${base}branches/`, 'branch-events': `${base}branch-events/`, changes: `${base}changes/` };
  });
  router.get(BRANCHES_PATH, (ctx) => listView(services, ctx));
  for (const [path, isDetail] of [
    [BRANCHES_PATH, false],
    [detail, true],
  ] as const)
    router.options(path, (ctx) => {
      assertMay(ctx, 'view');
      ctx.body = branchOptions(isDetail, { add: may(ctx, 'add'), change: may(ctx, 'change') });
    });
  router.post(BRANCHES_PATH, (ctx) => writeView(services, ctx, 'add', 201, (tx) => createBranch(tx, ctx.state.body)));
  router.get(detail, async (ctx) => {
    assertMay(ctx, 'view');
    ctx.body = await renderBranch(services.store, ctx.state.baseUrl, await branchAt(services, ctx));
  });
  for (const method of ['put', 'patch'] as const)
    router[method](detail, (ctx) =>
      writeView(services, ctx, 'change', 200, (tx) => updateBranch(tx, idOf(ctx), ctx.state.body)),
    );
  router.delete(detail, async (ctx) => {
    assertMay(ctx, 'delete');
    branches.assertIdle((await branchAt(services, ctx)).schema_id);
    await services.coordinator.execute(mainContext(ctx), (tx) => deleteBranch(tx, idOf(ctx)));
    ctx.status = 204;
  });
  const idle = async (ctx: Context) => branches.assertIdle((await branchAt(services, ctx)).schema_id);
  router.post(`${detail}sync/`, async (ctx) => {
    const branch = await branchAt(services, ctx);
    await branches.holding(branch.schema_id, 'sync', () => syncView(services, branches, ctx));
  });
  router.post(`${detail}archive/`, async (ctx) => {
    await idle(ctx);
    await actionView(services, ctx, 'archive', (tx) => archiveBranch(tx, idOf(ctx)));
  });
  router.post(`${detail}merge/`, async (ctx) => {
    const branch = await branchAt(services, ctx);
    await branches.holding(branch.schema_id, 'merge', () => mergeView(services, branches, ctx));
  });
  router.post(`${detail}revert/`, async (ctx) => {
    const branch = await branchAt(services, ctx);
    await branches.holding(branch.schema_id, 'revert', () => revertView(services, ctx));
  });
  router.get(CHANGES_PATH, (ctx) => changesView(services, branches, ctx));
  router.get(EVENTS_PATH, (ctx) => eventsView(services, ctx));
  return router;
}

/** Branches are not registry models: NetBox's model permissions on `netbox_branching.branch`, superusers all. */
function assertMay(ctx: Context, action: BranchAction): void {
  const principal = principalOf(ctx);
  if (!principal) throw new PermissionDeniedError(NOT_AUTHENTICATED);
  if (action !== 'view' && !principal.writeEnabled) throw new PermissionDeniedError();
  if (!principal.isSuperuser && !principal.permissions.has(BRANCH, action)) throw new PermissionDeniedError();
}

/** Whether the caller may `action` (model level), for OPTIONS. */
function may(ctx: Context, action: BranchAction): boolean {
  try {
    assertMay(ctx, action);
    return true;
  } catch {
    return false;
  }
}

function mainContext(ctx: Context): WriteContext {
  return { requestId: ctx.state.requestId, user: ctx.state.eventUser ?? null, webhookDepth: ctx.state.webhookDepth };
}

function idOf(ctx: Context): number {
  const raw = String(ctx.params.id);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new NotFoundError();
  return Number(raw);
}

async function branchAt(services: Services, ctx: Context): Promise<BranchRecord> {
  const branch = (await services.store.get(BRANCH, idOf(ctx))) as unknown as BranchRecord | null;
  if (!branch) throw new NotFoundError();
  return branch;
}

/** `{"commit": true}` runs an action; false (or left out, as netbox-branching's default) is a dry run. */
function commitOf(ctx: Context): boolean {
  const body = ctx.state.body;
  if (body === undefined || body === null) return false;
  if (typeof body !== 'object' || Array.isArray(body))
    throw new ValidationError({ commit: ['Expected a dictionary.'] });
  const commit = (body as { commit?: unknown }).commit;
  if (commit !== undefined && typeof commit !== 'boolean')
    throw new ValidationError({ commit: ['Must be a valid boolean.'] });
  return commit === true;
}

async function listView(services: Services, ctx: Context) {
  assertMay(ctx, 'view');
  const query = new URLSearchParams(ctx.querystring);
  // netbox-branching's BranchFilterSet, by the generic filters (branchMetadata.ts says which).
  const where = await compileFilter(services.registry, BRANCH_SHAPE, query, services.store);
  const page = parsePage(query, services.config.paginateCount, services.config.maxPageSize);
  const count = await services.store.count(BRANCH, where);
  const docs = await services.store.find(BRANCH, where, {
    sort: { name: 1, id: 1 },
    skip: page.offset,
    limit: page.limit ?? undefined,
  });
  const results = [];
  for (const doc of docs)
    results.push(await renderBranch(services.store, ctx.state.baseUrl, doc as unknown as BranchRecord));
  ctx.body = { count, ...pageLinks(`${ctx.state.baseUrl}${ctx.path}`, query, page, count), results };
}

async function writeView(
  services: Services,
  ctx: Context,
  action: BranchAction,
  status: number,
  decide: (tx: WriteTransaction) => Promise<ChangeEvent>,
) {
  assertMay(ctx, action);
  const { result } = await services.coordinator.execute(mainContext(ctx), decide);
  ctx.status = status;
  ctx.body = await renderBranch(services.store, ctx.state.baseUrl, await current(services, result.objectId));
}

async function current(services: Services, id: number): Promise<BranchRecord> {
  const branch = (await services.store.get(BRANCH, id)) as unknown as BranchRecord | null;
  if (!branch) throw new NotFoundError();
  return branch;
}

/** archive: one request changing the branch; a dry run decides it and writes nothing. */
async function actionView(
  services: Services,
  ctx: Context,
  action: BranchAction,
  decide: (tx: WriteTransaction) => Promise<ChangeEvent>,
) {
  assertMay(ctx, action);
  const commit = commitOf(ctx);
  if (!commit) {
    const planned = await dryRun(services, ctx, decide);
    ctx.body = {
      commit: false,
      branch: await renderBranch(services.store, ctx.state.baseUrl, {
        ...planned.postchange,
        id: planned.objectId,
      } as unknown as BranchRecord),
    };
    return;
  }
  const { result } = await services.coordinator.execute(mainContext(ctx), decide);
  ctx.body = {
    commit: true,
    branch: await renderBranch(services.store, ctx.state.baseUrl, await current(services, result.objectId)),
  };
}

/**
 * sync: main's values for the fields both sides changed written in the branch, then the fork
 * moved to now (syncWithMain); a dry run lists those values and the branch as it would be.
 */
async function syncView(services: Services, branches: Branches, ctx: Context) {
  assertMay(ctx, 'sync');
  const commit = commitOf(ctx);
  const branch = await branchAt(services, ctx);
  const view = branches.view(branch.schema_id);
  if (!view) throw new ConflictError(`Branch ${branch.name} is ${branch.status}: only a ready branch syncs.`);
  const main = lookupView(services.store);
  if (!commit) {
    const planned = await dryRun(services, ctx, (tx) => syncBranch(tx, branch.id));
    ctx.body = {
      commit: false,
      main_values: await mainValuesToApply(view, main),
      branch: await renderBranch(services.store, ctx.state.baseUrl, {
        ...planned.postchange,
        id: planned.objectId,
      } as unknown as BranchRecord),
    };
    return;
  }
  const { applied } = await syncWithMain(services.coordinator, view, mainContext(ctx), main);
  ctx.body = {
    commit: true,
    main_values: applied,
    branch: await renderBranch(services.store, ctx.state.baseUrl, await current(services, branch.id)),
  };
}

/** Thrown at the end of a dry run's decision: the writer then appends nothing. */
class DryRun<T> extends Error {
  constructor(readonly result: T) {
    super('dry run');
  }
}

async function dryRun<T>(services: Services, ctx: Context, decide: (tx: WriteTransaction) => Promise<T>): Promise<T> {
  try {
    await services.coordinator.execute(mainContext(ctx), async (tx) => {
      throw new DryRun(await decide(tx));
    });
  } catch (error) {
    if (error instanceof DryRun) return error.result as T;
    throw error;
  }
  throw new Error('a dry run wrote');
}

/**
 * merge: the branch's changes applied to main, and the branch marked merged, as one request
 * (this one: its X-Request-ID is the merge's, revertible as a unit), refused with 409 and the
 * conflicts when the branch and main changed the same fields.
 */
async function mergeView(services: Services, branches: Branches, ctx: Context) {
  assertMay(ctx, 'merge');
  const commit = commitOf(ctx);
  const branch = await branchAt(services, ctx);
  const view = branches.view(branch.schema_id);
  if (!view) throw new ConflictError(`Branch ${branch.name} is ${branch.status}: only a ready branch can be merged.`);
  const merge = (tx: WriteTransaction) => mergeBranch(services.registry, tx, view);
  try {
    if (!commit) {
      const planned = await dryRun(services, ctx, merge);
      ctx.body = {
        commit: false,
        conflicts: [],
        changes: planned.length,
        branch: await renderBranch(services.store, ctx.state.baseUrl, branch),
      };
      return;
    }
    // The branch's changes and its new status in one request: the merge is atomic, and reverting
    // that request (here or at /api/extras/requests/<id>/revert/) reopens the branch as well.
    const { events } = await services.coordinator.execute(mainContext(ctx), async (tx) => {
      const made = await merge(tx);
      await markMerged(tx, branch.id, ctx.state.requestId);
      return made;
    });
    ctx.body = {
      commit: true,
      request_id: ctx.state.requestId,
      changes: events.length - 1,
      branch: await renderBranch(services.store, ctx.state.baseUrl, await current(services, branch.id)),
    };
  } catch (error) {
    if (!(error instanceof BranchConflictError)) throw error;
    ctx.status = commit ? 409 : 200;
    ctx.body = {
      ...(commit ? { detail: error.message } : { commit: false, changes: 0 }),
      conflicts: error.conflicts.map((diff) => renderDiff(ctx.state.baseUrl, branch, diff)),
    };
  }
}

/** revert: the merge request reverted as one unit (the audit side's revert), which makes the branch ready again. */
async function revertView(services: Services, ctx: Context) {
  assertMay(ctx, 'revert');
  const commit = commitOf(ctx);
  const branch = await branchAt(services, ctx);
  if (branch.status !== 'merged' || !branch.merge_request)
    throw new ConflictError(`Branch ${branch.name} is ${branch.status}: only a merged branch can be reverted.`);
  if (!services.audit) throw new ConflictError('Reverting needs the audit side, which this process does not run.');
  if (!commit) {
    ctx.body = {
      commit: false,
      merge_request: branch.merge_request,
      branch: await renderBranch(services.store, ctx.state.baseUrl, branch),
    };
    return;
  }
  // One request: the merge's changes undone and the branch restored as it was before it (ready).
  const events = await services.audit.revert(services.coordinator, branch.merge_request, mainContext(ctx));
  ctx.body = {
    commit: true,
    request_id: ctx.state.requestId,
    reverted_request_id: branch.merge_request,
    changes: events.length,
    branch: await renderBranch(services.store, ctx.state.baseUrl, await current(services, branch.id)),
  };
}

/** The open branches' per-object diffs (`?branch_id=`, `?branch=<schema_id>`), paged. */
async function changesView(services: Services, branches: Branches, ctx: Context) {
  assertMay(ctx, 'view');
  const query = new URLSearchParams(ctx.querystring);
  const wanted = query.getAll('branch_id').map(Number);
  const schemaIds = query.getAll('branch');
  const records = (await services.store.find(
    BRANCH,
    { status: 'ready' },
    { sort: { id: 1 } },
  )) as unknown as BranchRecord[];
  const rows: unknown[] = [];
  for (const record of records) {
    if (wanted.length && !wanted.includes(record.id)) continue;
    if (schemaIds.length && !schemaIds.includes(record.schema_id)) continue;
    const view = branches.view(record.schema_id);
    if (!view) continue;
    for (const diff of await branchDiffs(view, lookupView(services.store)))
      rows.push(renderDiff(ctx.state.baseUrl, record, diff));
  }
  const page = parsePage(query, services.config.paginateCount, services.config.maxPageSize);
  const results = rows.slice(page.offset, page.limit === null ? undefined : page.offset + page.limit);
  ctx.body = { count: rows.length, ...pageLinks(`${ctx.state.baseUrl}${ctx.path}`, query, page, rows.length), results };
}

/**
 * netbox-branching's branch events (`?branch_id=`, `?type=`), newest first, read from each
 * branch's own changes on main's log through the audit index.
 */
async function eventsView(services: Services, ctx: Context) {
  assertMay(ctx, 'view');
  const audit = services.audit;
  if (!audit) throw new ConflictError('Branch events are read from the audit side, which this process does not run.');
  const query = new URLSearchParams(ctx.querystring);
  const wanted = query.getAll('branch_id').map(Number);
  const types = query.getAll('type');
  await audit.log.sync();
  const branches = (await services.store.find(BRANCH, {}, { sort: { id: 1 } })) as unknown as BranchRecord[];
  const rows: Array<{ position: number; body: unknown }> = [];
  for (const branch of branches) {
    if (wanted.length && !wanted.includes(branch.id)) continue;
    const changes = await audit.log.events(audit.log.index.objectPositions(BRANCH, branch.id));
    for (const event of branchEvents(changes)) {
      if (types.length && !types.includes(event.type)) continue;
      const user = event.user
        ? {
            id: event.user.id,
            url: `${ctx.state.baseUrl}/api/users/users/${event.user.id}/`,
            display: event.user.username,
            username: event.user.username,
          }
        : null;
      rows.push({
        position: event.position,
        body: {
          id: event.position,
          url: `${ctx.state.baseUrl}${EVENTS_PATH}${event.position}/`,
          display: `${branch.name}: ${event.type}`,
          time: event.time,
          branch: nestedBranch(ctx.state.baseUrl, branch),
          user,
          type: { value: event.type, label: event.type[0]!.toUpperCase() + event.type.slice(1) },
        },
      });
    }
  }
  rows.sort((a, b) => b.position - a.position);
  const page = parsePage(query, services.config.paginateCount, services.config.maxPageSize);
  const results = rows
    .slice(page.offset, page.limit === null ? undefined : page.offset + page.limit)
    .map((r) => r.body);
  ctx.body = { count: rows.length, ...pageLinks(`${ctx.state.baseUrl}${ctx.path}`, query, page, rows.length), results };
}

import { once } from 'node:events';

import type { Context, Middleware, Next } from 'koa';

import type { AuditService } from '../../audit/AuditService.js';
import {
  canonicalUuid,
  ChangeFilterError,
  compileChangeFilter,
  matchesChange,
  parseOrdering,
  selectChanges,
  type UserLookup,
} from '../../audit/changeQuery.js';
import type { ChangeTest } from '../../audit/changeScope.js';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors/requestErrors.js';
import { changeEventSchema } from '../../events/ChangeEvent.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import { assertMayWrite, NOT_AUTHENTICATED, viewScope } from '../permissions.js';
import { pageLinks, parsePage } from '../query/pagination.js';
import { RoutesByModel } from '../RoutesByModel.js';
import type { Services } from '../Services.js';
import { readableChanges } from './changePermission.js';
import { openPastStore } from './pastStore.js';

const READ_ONLY_METHODS = 'GET, HEAD, OPTIONS';
/** A live stream sends a comment this often so that proxies keep the connection open. */
const HEARTBEAT_MS = 15_000;
/** Positions a stream examines per step. */
const STREAM_STEP = 500;

/**
 * The audit API, mounted before the model routes:
 *
 * - `/api/extras/object-changes/` (list, `<id>/` detail, `stream/` Server-Sent Events),
 *   read-only, answered from the event log;
 * - `/api/<app>/<model>/<id>/history/`: the object's versions (its object changes);
 * - `/api/extras/requests/<uuid>/` (what a request changed) and `.../revert/` (POST);
 * - `/api/schema/events/`: the JSON Schema of the event envelope;
 * - `?as_of=<ISO time | log position>` on model list and detail views: the answer from
 *   the read models as they were then (sets `ctx.state.readStore`).
 *
 * Every read of change records passes readableChanges (changePermission.ts) first and
 * shows only the records it allows.
 */
export function auditApi(services: Services, audit: AuditService): Middleware {
  // Grouped by path (a history route per model): a request meets only its own few patterns.
  const router = new RoutesByModel();
  const list = '/api/extras/object-changes/';

  router.get(list, (ctx) => listView(services, audit, ctx));
  router.get(`${list}stream/`, (ctx) => streamView(services, audit, ctx));
  router.all(`${list}stream/`, (ctx) => methodNotAllowed(ctx, READ_ONLY_METHODS, 'Object Change Stream'));
  router.get(`${list}:id/`, (ctx) => detailView(services, audit, ctx));
  router.all(list, (ctx) => methodNotAllowed(ctx, READ_ONLY_METHODS, 'Object Change List'));
  router.all(`${list}:id/`, (ctx) => methodNotAllowed(ctx, READ_ONLY_METHODS, 'Object Change'));

  router.get('/api/extras/requests/:uuid/', (ctx) => requestView(services, audit, ctx));
  router.all('/api/extras/requests/:uuid/', (ctx) => methodNotAllowed(ctx, READ_ONLY_METHODS, 'Request'));
  router.post('/api/extras/requests/:uuid/revert/', (ctx) => revertView(services, audit, ctx));
  router.all('/api/extras/requests/:uuid/revert/', (ctx) => methodNotAllowed(ctx, 'POST, OPTIONS', 'Revert'));

  router.get('/api/schema/events/', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = changeEventSchema;
  });

  for (const definition of services.registry.all()) {
    const history = `/api/${definition.app}/${definition.path}/:id/history/`;
    router.get(history, (ctx) => historyView(services, audit, definition, ctx));
    router.all(history, (ctx) => methodNotAllowed(ctx, READ_ONLY_METHODS, `${definition.verboseName} history`));
  }

  const routes = router.routes();
  const asOf = asOfMiddleware(services, audit);
  return (ctx, next) => asOf(ctx, () => routes(ctx, next));
}

function methodNotAllowed(ctx: Context, allow: string, name: string) {
  ctx.set('Allow', allow);
  if (ctx.method === 'OPTIONS') {
    ctx.status = 200;
    ctx.body = { name, description: '', renders: ['application/json'], parses: ['application/json'] };
    return;
  }
  // As NetBox: the permission check comes first, so an anonymous caller gets 403, not 405.
  if (!ctx.state.principal) throw new PermissionDeniedError(NOT_AUTHENTICATED);
  ctx.status = 405;
  ctx.body = { detail: `Method "${ctx.method}" not allowed.` };
}

function userLookup(services: Services): UserLookup {
  return {
    async idsByUsername(names) {
      const docs = await services.store.find('auth.user', { username: { $in: names } });
      return new Map(docs.map((d) => [String(d.username), d.id]));
    },
    async existingIds(ids) {
      if (ids.length === 0) return new Set();
      const docs = await services.store.getMany('auth.user', ids);
      return new Set(docs.map((d) => d.id));
    },
  };
}

/**
 * The query's filter, narrowed to the records the caller may read (`readable`, from readableChanges);
 * a branch's change list uses it too.
 */
export async function compileReadableFilter(
  services: Services,
  audit: AuditService,
  query: URLSearchParams,
  readable: ChangeTest | null,
  options: { live?: boolean; loggedOnly?: boolean } = {},
) {
  let filter;
  try {
    filter = await compileChangeFilter(audit.log.index, query, userLookup(services), audit.contentTypes, options);
  } catch (error) {
    if (error instanceof ChangeFilterError) throw new ValidationError(error.errors);
    throw error;
  }
  // Last: the query's own (index-driven, cheaper) clauses reject most positions first.
  if (readable) filter.tests.push(readable);
  return filter;
}

function renderContext(services: Services, ctx: Context) {
  return { baseUrl: ctx.state.baseUrl as string, store: services.store, serializer: services.serializer };
}

/** A positive integer path parameter, or 404. */
function pathId(ctx: Context): number {
  const raw = String(ctx.params.id);
  const id = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new NotFoundError();
  return id;
}

async function listView(services: Services, audit: AuditService, ctx: Context) {
  const readable = await readableChanges(ctx, services, audit);
  const query = new URLSearchParams(ctx.querystring);
  await audit.log.sync();
  const filter = await compileReadableFilter(services, audit, query, readable);
  await respondWithPage(services, audit, ctx, query, filter);
}

async function respondWithPage(
  services: Services,
  audit: AuditService,
  ctx: Context,
  query: URLSearchParams,
  filter: Awaited<ReturnType<typeof compileReadableFilter>>,
) {
  const page = parsePage(query, services.config.paginateCount, services.config.maxPageSize);
  const selection = selectChanges(
    audit.log.index,
    filter,
    parseOrdering(query.get('ordering')),
    page.offset,
    page.limit,
  );
  const results = await audit.renderer.render(
    await audit.log.events(selection.positions),
    renderContext(services, ctx),
  );
  const base = `${ctx.state.baseUrl}${ctx.path}`;
  ctx.body = { count: selection.count, ...pageLinks(base, query, page, selection.count), results };
}

async function detailView(services: Services, audit: AuditService, ctx: Context) {
  const readable = await readableChanges(ctx, services, audit);
  const id = pathId(ctx);
  await audit.log.sync();
  if (id > audit.log.head || !audit.log.index.isLogged(id)) throw new NotFoundError();
  if (readable && !readable(id)) throw new NotFoundError();
  const [row] = await audit.renderer.render(await audit.log.events([id]), renderContext(services, ctx));
  ctx.body = row;
}

/**
 * An object's versions: its object changes, newest first, filterable and paginated like
 * the list. As NetBox's change log tab of an object: the object must be visible to the
 * caller, the caller needs extras.view_objectchange, and only the changes within that
 * permission's constraints are listed.
 */
async function historyView(services: Services, audit: AuditService, definition: ModelDefinition, ctx: Context) {
  const scope = await viewScope(ctx, services.config, definition);
  const readable = await readableChanges(ctx, services, audit);
  const id = pathId(ctx);
  await audit.log.sync();
  if (audit.log.index.lastPositionOf(definition.key, id) === 0) throw new NotFoundError();
  if (Object.keys(scope).length > 0) {
    // Constrained permissions: the object must be visible now.
    const [visible] = await services.store.find(definition.key, { $and: [scope, { id }] }, { limit: 1 });
    if (!visible) throw new NotFoundError();
  }
  const query = new URLSearchParams(ctx.querystring);
  const filterQuery = new URLSearchParams(query);
  for (const key of [...filterQuery.keys()]) {
    if (key.startsWith('changed_object_type') || key.startsWith('changed_object_id')) filterQuery.delete(key);
  }
  filterQuery.set('changed_object_type', definition.key);
  filterQuery.set('changed_object_id', String(id));
  // An object's history has every event of it, also of models NetBox does not change-log (users, tokens).
  const filter = await compileReadableFilter(services, audit, filterQuery, readable, { loggedOnly: false });
  // Main's history: the changes made inside branches are theirs (a merge's are main's).
  filter.tests.push((p) => !audit.log.index.isBranchChange(p));
  await respondWithPage(services, audit, ctx, query, filter);
}

/**
 * What one request changed, and how it relates to reverts: counted over the changes the
 * caller may read (a request none of whose changes they may read is not found), and the
 * requests that reverted it among those with a change they may read.
 */
async function requestView(services: Services, audit: AuditService, ctx: Context) {
  const readable = await readableChanges(ctx, services, audit);
  const requestId = canonicalUuid(String(ctx.params.uuid));
  if (!requestId) throw new NotFoundError();
  await audit.log.sync();
  const index = audit.log.index;
  const all = index.requestPositions(requestId);
  const positions = readable ? all.filter(readable) : all;
  if (positions.length === 0) throw new NotFoundError();
  const [first] = await audit.log.events([positions[0]!]);
  const base = ctx.state.baseUrl as string;
  const actions = { create: 0, update: 0, delete: 0 };
  for (const p of positions) actions[index.actionAt(p)]++;
  ctx.body = {
    request_id: requestId,
    url: `${base}/api/extras/requests/${requestId}/`,
    time: first!.time,
    user_name: first!.user?.username ?? '',
    changes: positions.length,
    actions,
    first_position: positions[0],
    last_position: positions[positions.length - 1],
    object_changes_url: `${base}/api/extras/object-changes/?request_id=${requestId}`,
    revert_url: `${base}/api/extras/requests/${requestId}/revert/`,
    revert_of: first!.revertOf ?? null,
    reverted_by: index.revertsOf(requestId).filter((id) => !readable || index.requestPositions(id).some(readable)),
  };
}

/** POST: apply the inverse of the request's changes as one new atomic request (this one). */
async function revertView(services: Services, audit: AuditService, ctx: Context) {
  assertMayWrite(ctx);
  const target = canonicalUuid(String(ctx.params.uuid));
  if (!target) throw new NotFoundError();
  const events = await audit.revert(services.coordinator, target, {
    requestId: ctx.state.requestId,
    user: ctx.state.eventUser ?? null,
    webhookDepth: ctx.state.webhookDepth,
  });
  const changes = await audit.renderer.render(events, renderContext(services, ctx));
  ctx.status = 200;
  ctx.body = { request_id: ctx.state.requestId, reverted_request_id: target, count: changes.length, changes };
}

/**
 * Server-Sent Events: every new object change matching the list's filters, oldest
 * first, as `id: <position>` + `data: <object change JSON>`. `Last-Event-ID` (header,
 * as EventSource sends it on reconnect, or `?last_event_id=`) resumes after that
 * position without gaps or duplicates; without it the stream starts at the current head.
 */
async function streamView(services: Services, audit: AuditService, ctx: Context) {
  // The constraints are resolved once, at the start: the feed keeps the scope it opened with.
  const readable = await readableChanges(ctx, services, audit);
  const query = new URLSearchParams(ctx.querystring);
  await audit.log.sync();
  const filter = await compileReadableFilter(services, audit, query, readable, { live: true });
  const resume = ctx.get('Last-Event-ID') || query.get('last_event_id');
  let cursor = audit.log.head;
  if (resume !== null && resume !== '') {
    if (!/^\d+$/.test(resume.trim()) || Number(resume) > audit.log.head) {
      throw new ValidationError({ last_event_id: [`Not a position of this change log (0 to ${audit.log.head}).`] });
    }
    cursor = Number(resume);
  }

  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.req.socket.setKeepAlive(true);
  ctx.status = 200;
  ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
  ctx.set('Cache-Control', 'no-cache, no-transform');
  ctx.set('X-Accel-Buffering', 'no');
  // The response is written here, not by koa (whose piping would report every client
  // disconnect, the normal end of a stream, as an error).
  ctx.respond = false;
  const stream = ctx.res;
  stream.flushHeaders();

  let closed = false;
  const ended = new AbortController();
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const unsubscribe = audit.log.onChange(signal);
  const untrack = audit.trackStream(() => finish());
  const heartbeat = setInterval(() => {
    if (!closed) stream.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  function finish() {
    if (closed) return;
    closed = true;
    ended.abort();
    clearInterval(heartbeat);
    unsubscribe();
    untrack();
    signal();
    stream.end();
  }
  stream.on('close', finish);
  stream.on('error', finish);
  stream.write(`retry: 2000\n: position ${cursor}\n\n`);

  const context = renderContext(services, ctx);
  void (async () => {
    try {
      while (!closed && !audit.log.isClosed) {
        const head = audit.log.head;
        if (cursor >= head) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          continue;
        }
        const to = Math.min(head, cursor + STREAM_STEP);
        const positions: number[] = [];
        for (let p = cursor + 1; p <= to; p++) if (matchesChange(audit.log.index, filter, p)) positions.push(p);
        if (positions.length > 0) {
          // A change renders its object from the read models, which follow the log on their own
          // (on Kafka, a subscription of their own): as the list does, wait until they hold it.
          await services.projector.waitFor(to, { signal: ended.signal });
          if (closed) break;
          const rows = await audit.renderer.render(await audit.log.events(positions), context);
          if (closed) break;
          const text = rows.map((row) => `id: ${String(row.id)}\ndata: ${JSON.stringify(row)}\n\n`).join('');
          if (!stream.write(text)) await Promise.race([once(stream, 'drain'), once(stream, 'close')]);
        }
        cursor = to;
      }
    } catch (error) {
      if (closed) return; // ended while waiting for the read models: not a failure
      services.logger({
        level: 'error',
        requestId: ctx.state.requestId,
        msg: `object-change stream failed: ${(error as Error)?.stack ?? String(error)}`,
      });
    } finally {
      finish();
    }
  })();
}

/** The model a list or detail path names (`/api/<app>/<path>/` or `.../<id>/`), or null. */
function modelViewOf(services: Services, path: string): ModelDefinition | null {
  const [, api, app, model, id, extra] = path.split('/');
  if (api !== 'api' || !app || !model) return null;
  if (!(extra === undefined || (extra === '' && id !== ''))) return null;
  return services.registry.byPath(app, model) ?? null;
}

/**
 * `?as_of=` on model list and detail views: serve them from the read models as they were
 * then. A past state is built only for a caller who may read it: one who may view the
 * model (its constraints then apply to the past state as the view applies them) and every
 * change record the past state is made of (extras.view_objectchange without constraints:
 * a past state cannot be narrowed to some of the changes it results from). Builds run one at
 * a time: beyond the builder's queue the answer is 503 with Retry-After; a client that
 * goes away stops waiting, and a build nobody waits for is cancelled.
 */
function asOfMiddleware(services: Services, audit: AuditService): (ctx: Context, next: Next) => Promise<unknown> {
  return async (ctx, next) => {
    // Inside a branch, the branch's header chose the past state already (branchPastStore.ts).
    if (ctx.state.branch) return next();
    if ((ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.querystring.includes('as_of=')) {
      const values = new URLSearchParams(ctx.querystring).getAll('as_of').filter((v) => v !== '');
      const definition = values.length > 0 ? modelViewOf(services, ctx.path) : null;
      if (definition) {
        await viewScope(ctx, services.config, definition);
        if ((await openPastStore(ctx, services, audit, values[values.length - 1]!)) === null) return;
      }
    }
    return next();
  };
}

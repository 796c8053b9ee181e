import type { Context } from 'koa';

import { createObjects } from '../commands/createObjects.js';
import { deleteObjects } from '../commands/deleteObjects.js';
import { NotFoundError, ValidationError } from '../commands/errors.js';
import type { ExpectedVersions, Precondition } from '../commands/preconditions.js';
import type { WriteOutcome } from '../commands/recordEach.js';
import { type UpdateItem, updateObjects } from '../commands/updateObjects.js';
import type { WriteContext, WriteTransaction } from '../commands/WriteCoordinator.js';
import { nextTurn } from '../eventLoopTurns.js';
import type { FieldErrors, ModelDefinition } from '../models/types.js';
import type { ReadDocument } from '../projections/ReadStore.js';
import { etagOf, ifMatchPreconditions, ITEM_ETAG, itemEtagError, itemVersions } from './conditionalWrite.js';
import { detailActionRoutes } from './detailActionRoutes.js';
import { detailViewRoutes } from './detailViewRoutes.js';
import { answerExport } from './exportTemplate.js';
import { RawJson } from './face/RawJson.js';
import { ifNoneMatchHolds, listEtag } from './listEtag.js';
import { objectNotModified } from './objectNotModified.js';
import { assertInScope, viewScope, withinScope, writeGuard, writeScope } from './permissions.js';
import { listPage } from './query/listPage.js';
import { and } from './query/ListQueryCompiler.js';
import { cacheableRendering, renderCached, renderKeyPrefix } from './renderCache/renderCached.js';
import { readModels } from './requestReadModels.js';
import { RoutesByModel } from './RoutesByModel.js';
import type { RenderOptions, Representation } from './Serializer.js';
import type { Services } from './Services.js';

const LIST_METHODS = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS';
const DETAIL_METHODS = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';
const READ_ONLY_METHODS = 'GET, HEAD, OPTIONS';

/** List and detail routes for every model of the registry: no per-model route code. */
export function modelRoutes(services: Services): RoutesByModel {
  const router = new RoutesByModel();
  for (const definition of services.registry.all()) {
    const list = `/api/${definition.app}/${definition.path}/`;
    const detail = `${list}:id/`;
    const writable = !definition.readOnly;
    router.get(list, (ctx) => listView(services, definition, ctx));
    router.get(detail, (ctx) => detailView(services, definition, ctx));
    if (writable) {
      router.post(list, (ctx) => createView(services, definition, ctx));
      router.put(list, (ctx) => bulkUpdateView(services, definition, ctx, 'put'));
      router.patch(list, (ctx) => bulkUpdateView(services, definition, ctx, 'patch'));
      router.delete(list, (ctx) => bulkDeleteView(services, definition, ctx));
      router.put(detail, (ctx) => updateView(services, definition, ctx, 'put'));
      router.patch(detail, (ctx) => updateView(services, definition, ctx, 'patch'));
      router.delete(detail, (ctx) => deleteView(services, definition, ctx));
    }
    router.all(list, (ctx) => methodNotAllowed(ctx, writable ? LIST_METHODS : READ_ONLY_METHODS));
    router.all(detail, (ctx) => methodNotAllowed(ctx, writable ? DETAIL_METHODS : READ_ONLY_METHODS));
  }
  detailActionRoutes(services, router, { writeContext, runWrite, writtenObjects });
  detailViewRoutes(services, router);
  return router;
}

function methodNotAllowed(ctx: Context, allow: string) {
  ctx.set('Allow', allow);
  if (ctx.method === 'OPTIONS') {
    ctx.status = 200;
    ctx.body = {};
    return;
  }
  ctx.status = 405;
  ctx.body = { detail: `Method "${ctx.method}" not allowed.` };
}

function renderOptions(ctx: Context, query: URLSearchParams): RenderOptions {
  const only = query.get('fields');
  const exclude = query.getAll('exclude').flatMap((e) => e.split(','));
  return {
    baseUrl: ctx.state.baseUrl,
    only: only ? new Set(['id', ...only.split(',').map((s) => s.trim())]) : undefined,
    exclude: exclude.length ? new Set(exclude) : undefined,
  };
}

/** ?brief=<anything> asks for the brief form; a model without one (job results) ignores it. */
function representation(query: URLSearchParams, definition: ModelDefinition): Representation {
  return query.get('brief') && definition.brief.length > 0 ? 'brief' : 'complete';
}

export function parseId(ctx: Context): number {
  const raw = String(ctx.params.id);
  if (!/^\d+$/.test(raw)) throw new NotFoundError();
  const id = Number(raw);
  if (!Number.isSafeInteger(id)) throw new NotFoundError();
  return id;
}

async function listView(services: Services, definition: ModelDefinition, ctx: Context) {
  const scope = await viewScope(ctx, services.config, definition);
  const query = new URLSearchParams(ctx.querystring);
  const { store, serializer } = readModels(services, ctx);
  if (store === services.store && notModified(services, ctx)) return;
  const filter = and(scope, await services.queries.compile(definition, query, ctx, store));
  const exportName = query.get('export');
  if (exportName !== null)
    return answerExport(ctx, exportName, {
      store,
      serializer,
      definition,
      filter,
      query,
      options: renderOptions(ctx, query),
      templates: services.templates,
    });
  const { docs, ...envelope } = await listPage({
    store,
    definition,
    filter,
    query,
    base: `${ctx.state.baseUrl}${ctx.path}`,
    paginateCount: services.config.paginateCount,
    maxPageSize: services.config.maxPageSize,
    brief: representation(query, definition) === 'brief',
  });
  const texts = await renderTexts(
    services,
    ctx,
    definition,
    docs,
    representation(query, definition),
    renderOptions(ctx, query),
  );
  if (texts) {
    ctx.body = { ...envelope, results: RawJson.array(texts) };
    return;
  }
  const results = await serializer.render(
    definition,
    docs,
    representation(query, definition),
    renderOptions(ctx, query),
  );
  ctx.body = { ...envelope, results };
}

/**
 * Tags a live list page (taken before it is read, so the tag is never newer than the page)
 * and answers 304 when the client holds that tag already.
 */
function notModified(services: Services, ctx: Context): boolean {
  const etag = listEtag({
    position: services.projector.position,
    path: ctx.path,
    querystring: ctx.querystring,
    caller: String(ctx.state.principal?.user?.id ?? 'anonymous'),
    accept: ctx.get('Accept'),
    baseUrl: ctx.state.baseUrl,
  });
  ctx.set('ETag', etag);
  if (!ifNoneMatchHolds(ctx.get('If-None-Match'), etag)) return false;
  ctx.status = 304;
  return true;
}

/** The objects as JSON text through the render cache, or null where it does not apply (past states, partial or one-time renderings). */
function renderTexts(
  services: Services,
  ctx: Context,
  definition: ModelDefinition,
  docs: ReadDocument[],
  form: Representation,
  options: RenderOptions,
) {
  const cache = services.renderCache;
  const { store, serializer } = readModels(services, ctx);
  if (!cache || store !== services.store || !cacheableRendering(options)) return null;
  return renderCached({ cache, serializer, store }, definition, docs, form, options);
}

async function detailView(services: Services, definition: ModelDefinition, ctx: Context) {
  const scope = await viewScope(ctx, services.config, definition);
  const { store, serializer } = readModels(services, ctx);
  const [doc] = await store.find(definition.key, and(scope, { id: parseId(ctx) }), { limit: 1 });
  if (!doc) throw new NotFoundError();
  const query = new URLSearchParams(ctx.querystring);
  ctx.set('ETag', etagOf(doc._pos));
  const form = representation(query, definition);
  const options = renderOptions(ctx, query);
  const texts = await renderTexts(services, ctx, definition, [doc], form, options);
  if (texts) {
    const dependencies = services.renderCache!.dependencies(
      renderKeyPrefix(definition, form, options) + doc.id,
      doc._pos,
    );
    if (objectNotModified(ctx.get('If-None-Match'), doc._pos, dependencies, services.projector)) {
      ctx.status = 304;
      return;
    }
    ctx.body = new RawJson(texts);
    return;
  }
  const [body] = await serializer.render(definition, [doc], form, options);
  ctx.body = body;
}

export function writeContext(ctx: Context, authorize?: WriteContext['authorize']): WriteContext {
  const { requestId, eventUser, idempotency, webhookDepth, branch } = ctx.state;
  return { requestId, user: eventUser ?? null, authorize, idempotency, webhookDepth, branch };
}

/**
 * Runs a write, unless this is a retry the Idempotency-Key middleware recognised from
 * the event log: then the objects that first request wrote are answered again, as they
 * are now (one deleted since is left out), and nothing is written.
 */
export async function runWrite(
  services: Services,
  ctx: Context,
  definition: ModelDefinition,
  action: 'create' | 'update' | 'delete',
  context: WriteContext,
  decide: (tx: WriteTransaction) => Promise<WriteOutcome | void>,
): Promise<WriteOutcome> {
  const replayOf: string | undefined = ctx.state.replayOf;
  if (replayOf && services.audit) {
    const events = await services.audit.requestEvents(replayOf);
    const ids = events.filter((e) => e.objectType === definition.key && e.action === action).map((e) => e.objectId);
    const unique = [...new Set(ids)];
    const byId = new Map((await readModels(services, ctx).store.getMany(definition.key, unique)).map((d) => [d.id, d]));
    const documents = unique.map((id) => byId.get(id)).filter((d): d is ReadDocument => d !== undefined);
    return { ids: documents.map((d) => d.id), documents, revealed: new Map() };
  }
  const { result } = await services.coordinator.execute(context, decide);
  return result ?? { ids: [], documents: [], revealed: new Map() };
}

/** Objects a write's answer renders per turn of the event loop (1,000 at once held reads for 10-20 ms). */
const WRITTEN_RENDER_CHUNK = 200;

/**
 * The objects as the write left them, rendered for its response: from its own events,
 * not the read models, which may already hold later writes. Related objects, counts and
 * hierarchy are read as they are now, as for any read.
 */
export async function writtenObjects(
  services: Services,
  definition: ModelDefinition,
  ctx: Context,
  outcome: WriteOutcome,
  created: boolean,
) {
  const docs = outcome.documents;
  if (docs.length === 1) ctx.set('ETag', etagOf(docs[0]._pos));
  // One memo for every chunk: an object related to several is fetched and rendered once.
  const options = {
    baseUrl: ctx.state.baseUrl,
    omitAnnotated: created,
    revealed: outcome.revealed,
    memo: new Map<string, unknown>(),
  };
  const rendered: Record<string, unknown>[] = [];
  for (let i = 0; i < docs.length; i += WRITTEN_RENDER_CHUNK) {
    if (i > 0) await nextTurn();
    rendered.push(
      ...(await readModels(services, ctx).serializer.render(
        definition,
        docs.slice(i, i + WRITTEN_RENDER_CHUNK),
        'complete',
        options,
      )),
    );
  }
  return rendered;
}

function requireBody(ctx: Context): unknown {
  const body = ctx.state.body;
  if (body === undefined) throw new ValidationError({ non_field_errors: ['No data provided'] });
  return body;
}

async function createView(services: Services, definition: ModelDefinition, ctx: Context) {
  await writeScope(ctx, definition, 'add');
  const body = requireBody(ctx);
  const bulk = Array.isArray(body);
  const items = bulk ? body : [body];
  const context = writeContext(ctx, writeGuard(ctx, definition, 'add'));
  const result = await runWrite(services, ctx, definition, 'create', context, (tx) =>
    createObjects(services.commands, tx, definition, items, bulk),
  );
  const rendered = await writtenObjects(services, definition, ctx, result, true);
  ctx.status = 201;
  if (bulk) {
    ctx.body = rendered;
  } else {
    ctx.set('Location', services.serializer.url(definition, ctx.state.baseUrl, result.ids[0]));
    ctx.body = rendered[0];
  }
}

async function updateView(services: Services, definition: ModelDefinition, ctx: Context, mode: 'put' | 'patch') {
  const scope = await writeScope(ctx, definition, 'change');
  const id = parseId(ctx);
  await assertInScope(readModels(services, ctx).store, definition, scope, id);
  const body = requireBody(ctx);
  const preconditions = ifMatchPreconditions(ctx, [id]);
  const result = await runWrite(
    services,
    ctx,
    definition,
    'update',
    writeContext(ctx, writeGuard(ctx, definition, 'change', [id])),
    (tx) => updateObjects(services.commands, tx, definition, [{ id, input: body }], mode, false, preconditions),
  );
  const [rendered] = await writtenObjects(services, definition, ctx, result, false);
  ctx.body = rendered;
}

/** An element of a bulk body: the object's id, its input, and the version its `etag` names (if any). */
interface BulkItem extends UpdateItem {
  versions?: ExpectedVersions;
}

/**
 * Bulk bodies are arrays of objects, each with an integer id and optionally the
 * object's `etag`, which is taken out of the input (it is a precondition, not a field).
 */
function bulkItems(body: unknown): BulkItem[] {
  if (!Array.isArray(body)) {
    const type =
      body === null ? 'NoneType' : typeof body === 'object' ? 'dict' : typeof body === 'string' ? 'str' : typeof body;
    throw new ValidationError({ non_field_errors: [`Expected a list of items but got type "${type}".`] });
  }
  const errors = body.map((item): FieldErrors => {
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      return { non_field_errors: ['Invalid data. Expected a dictionary.'] };
    const id = (item as Record<string, unknown>).id;
    if (id === undefined || id === null) return { id: ['This field is required.'] };
    if (!Number.isSafeInteger(Number(id)) || !/^\d+$/.test(String(id))) return { id: ['A valid integer is required.'] };
    const etagError = itemEtagError(item as Record<string, unknown>);
    return etagError ? { [ITEM_ETAG]: [etagError] } : {};
  });
  if (errors.some((e) => Object.keys(e).length > 0)) throw new ValidationError(errors);
  return body.map((item: Record<string, unknown>) => {
    const { [ITEM_ETAG]: _etag, ...input } = item;
    return { id: Number(item.id), input, versions: itemVersions(item) };
  });
}

/** What the request asks of each object's version: the If-Match header's list and each item's own `etag`. */
function bulkPreconditions(ctx: Context, items: BulkItem[]): Precondition[] {
  const own = items.flatMap(({ id, versions }) => (versions ? [{ id, versions }] : []));
  return [
    ...ifMatchPreconditions(
      ctx,
      items.map((i) => i.id),
    ),
    ...own,
  ];
}

async function bulkUpdateView(services: Services, definition: ModelDefinition, ctx: Context, mode: 'put' | 'patch') {
  const scope = await writeScope(ctx, definition, 'change');
  const items = await withinScope(readModels(services, ctx).store, definition, scope, bulkItems(requireBody(ctx)));
  const guard = writeGuard(
    ctx,
    definition,
    'change',
    items.map((i) => i.id),
  );
  const preconditions = bulkPreconditions(ctx, items);
  const result = await runWrite(services, ctx, definition, 'update', writeContext(ctx, guard), (tx) =>
    updateObjects(services.commands, tx, definition, items, mode, true, preconditions),
  );
  ctx.body = await writtenObjects(services, definition, ctx, result, false);
}

async function deleteView(services: Services, definition: ModelDefinition, ctx: Context) {
  const scope = await writeScope(ctx, definition, 'delete');
  const id = parseId(ctx);
  if (!ctx.state.replayOf) await assertInScope(readModels(services, ctx).store, definition, scope, id);
  const preconditions = ifMatchPreconditions(ctx, [id]);
  await runWrite(
    services,
    ctx,
    definition,
    'delete',
    writeContext(ctx, writeGuard(ctx, definition, 'delete', [id])),
    (tx) => deleteObjects(services.commands, tx, definition, [id], false, preconditions),
  );
  ctx.status = 204;
}

async function bulkDeleteView(services: Services, definition: ModelDefinition, ctx: Context) {
  const scope = await writeScope(ctx, definition, 'delete');
  const items = await withinScope(readModels(services, ctx).store, definition, scope, bulkItems(requireBody(ctx)));
  const guard = writeGuard(
    ctx,
    definition,
    'delete',
    items.map((i) => i.id),
  );
  const preconditions = bulkPreconditions(ctx, items);
  await runWrite(services, ctx, definition, 'delete', writeContext(ctx, guard), (tx) =>
    deleteObjects(
      services.commands,
      tx,
      definition,
      items.map((i) => i.id),
      true,
      preconditions,
    ),
  );
  ctx.status = 204;
}

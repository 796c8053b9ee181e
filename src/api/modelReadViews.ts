/** The generated read views of every model: a list (with its filters, exports and list tags) and a detail. */
import type { Context } from 'koa';

import { NotFoundError } from '../errors/requestErrors.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ReadDocument, ReadStore } from '../projections/ReadStore.js';
import { etagOf } from './conditionalWrite.js';
import { detailId } from './detailId.js';
import { answerExport } from './exportTemplate.js';
import { RawJson } from './face/RawJson.js';
import { ifNoneMatchHolds, listEtag } from './listEtag.js';
import { listQueryRequest } from './listQueryRequest.js';
import { objectNotModified } from './objectNotModified.js';
import { viewScope } from './permissions.js';
import { listPage } from './query/listPage.js';
import { and } from './query/ListQueryCompiler.js';
import { cacheableRendering, renderCached, renderKeyPrefix } from './renderCache/renderCached.js';
import type { RenderOptions, Representation } from './renderOptions.js';
import { readModels } from './requestReadModels.js';
import type { Serializer } from './Serializer.js';
import type { Services } from './Services.js';

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

/** What a read asks, worked out once from the request: its parameters, the read models, the rendering. */
interface ReadRequest {
  query: URLSearchParams;
  store: ReadStore;
  serializer: Serializer;
  /** The live read models (not a past state): only they carry list tags and the render cache. */
  live: boolean;
  form: Representation;
  options: RenderOptions;
}

function readRequest(services: Services, ctx: Context, definition: ModelDefinition): ReadRequest {
  const query = new URLSearchParams(ctx.querystring);
  const { store, serializer } = readModels(services, ctx);
  return {
    query,
    store,
    serializer,
    live: store === services.store,
    form: representation(query, definition),
    options: renderOptions(ctx, query),
  };
}

export async function listView(services: Services, definition: ModelDefinition, ctx: Context) {
  const scope = await viewScope(ctx, services.config, definition);
  const read = readRequest(services, ctx, definition);
  const { query, store, serializer, form, options } = read;
  if (read.live && notModified(services, ctx)) return;
  const request = listQueryRequest(ctx, services.config, query);
  const filter = and(scope, await services.queries.compile(definition, request, store));
  const exportName = query.get('export');
  if (exportName !== null)
    return answerExport(ctx, exportName, {
      store,
      serializer,
      definition,
      filter,
      query,
      options,
      templates: services.templates,
    });
  ctx.state.answerCacheable = read.live;
  const { docs, ...envelope } = await listPage({
    store,
    definition,
    filter,
    query,
    base: `${ctx.state.baseUrl}${ctx.path}`,
    paginateCount: services.config.paginateCount,
    maxPageSize: services.config.maxPageSize,
    brief: form === 'brief',
  });
  const texts = await renderTexts(services, read, definition, docs);
  if (texts) {
    ctx.body = { ...envelope, results: RawJson.array(texts) };
    return;
  }
  const results = await serializer.render(definition, docs, form, options);
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
function renderTexts(services: Services, read: ReadRequest, definition: ModelDefinition, docs: ReadDocument[]) {
  const cache = services.renderCache;
  const { store, serializer, form, options } = read;
  if (!cache || !read.live || !cacheableRendering(options)) return null;
  return renderCached({ cache, serializer, store }, definition, docs, form, options);
}

export async function detailView(services: Services, definition: ModelDefinition, ctx: Context) {
  const scope = await viewScope(ctx, services.config, definition);
  const read = readRequest(services, ctx, definition);
  const { store, serializer, form, options } = read;
  const [doc] = await store.find(definition.key, and(scope, { id: detailId(ctx) }), { limit: 1 });
  if (!doc) throw new NotFoundError();
  ctx.set('ETag', etagOf(doc._pos));
  ctx.state.answerCacheable = read.live;
  const texts = await renderTexts(services, read, definition, [doc]);
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

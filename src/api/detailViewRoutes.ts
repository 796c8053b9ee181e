/**
 * Routes of the read-only detail sub-resources models declare (`detailViews`), e.g.
 * /api/dcim/interfaces/<id>/trace/ or /api/dcim/racks/<id>/elevation/: GET answers what
 * the declaration computes from the object and the read models.
 */
import type { Context } from 'koa';

import { PermissionDeniedError, ValidationError } from '../errors/requestErrors.js';
import type { DetailView, DetailViewRequest } from '../models/detailEndpoints.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import { lookupView } from '../projections/lookupView.js';
import { detailId } from './detailId.js';
import { modelViewName } from './face/views.js';
import { otherMethods } from './otherMethods.js';
import { viewScope, withinScope } from './permissions.js';
import { pageLinks, parsePage } from './query/pagination.js';
import { readModels } from './requestReadModels.js';
import type { RouteRegistry } from './RoutesByModel.js';
import type { Services } from './Services.js';
import { visibleObject } from './visibleObject.js';

const METHODS = 'GET, HEAD, OPTIONS';

export function detailViewRoutes(services: Services, router: RouteRegistry): void {
  for (const definition of services.registry.all()) {
    for (const detail of definition.detailViews ?? []) {
      const path = `/api/${definition.app}/${definition.path}/:id/${detail.path}/`;
      router.get(path, (ctx) => respond(services, definition, detail, ctx));
      otherMethods(services, router, path, METHODS, modelViewName(definition));
    }
  }
}

async function respond(services: Services, definition: ModelDefinition, detail: DetailView, ctx: Context) {
  ctx.set('Allow', METHODS);
  const object = await visibleObject(services, definition, ctx, detailId(ctx));
  const query = new URLSearchParams(ctx.querystring);
  const request: DetailViewRequest = {
    model: definition.key,
    view: lookupView(readModels(services, ctx).store),
    query,
    nested: async (refs, fields) => {
      const forms = await readModels(services, ctx).serializer.referenced(
        refs,
        { baseUrl: ctx.state.baseUrl as string },
        0,
        fields,
      );
      return refs.map((ref) => forms.get(`${ref.object_type}:${ref.object_id}`) ?? null);
    },
    paginate: (items) => {
      const page = parsePage(query, services.config.paginateCount, services.config.maxPageSize);
      const results =
        page.limit === null ? items.slice(page.offset) : items.slice(page.offset, page.offset + page.limit);
      const base = `${ctx.state.baseUrl}${ctx.path}`;
      return { count: items.length, ...pageLinks(base, query, page, items.length), results };
    },
    viewable: async (model, ids) => {
      const target = services.registry.get(model);
      let scope;
      try {
        scope = await viewScope(ctx, services.config, target);
      } catch (error) {
        if (error instanceof PermissionDeniedError) return new Set();
        throw error;
      }
      return new Set(
        (
          await withinScope(
            readModels(services, ctx).store,
            target,
            scope,
            ids.map((id) => ({ id })),
          )
        ).map((item) => item.id),
      );
    },
    invalid: (errors) => {
      throw new ValidationError(errors);
    },
    source: (name) => services.sources?.get(name),
  };
  const answer = await detail.respond(object, request);
  if (answer.contentType) {
    ctx.type = answer.contentType;
    // A drawing of stored names (a rack's SVG elevation), opened on its own: no script, nothing fetched.
    ctx.set('Content-Security-Policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'");
  }
  ctx.body = answer.body;
}

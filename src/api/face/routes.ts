/**
 * The face's routes, mounted before the API root and the model routes: OPTIONS
 * metadata, the OpenAPI document and its documentation pages, their static assets,
 * Prometheus metrics and the health checks.
 */
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';

import { PermissionDeniedError } from '../../errors/requestErrors.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import { mayPerform, NOT_AUTHENTICATED } from '../permissions.js';
import { RoutesByModel } from '../RoutesByModel.js';
import type { Services } from '../Services.js';
import { HTML_SECURITY_HEADERS } from './browsable.js';
import { escapeHtml } from './html.js';
import { metricsFor } from './metrics.js';
import { optionsBody } from './options.js';
import { schemaDocument } from './schemaDocument.js';
import { staticAsset } from './staticAssets.js';
import { swaggerDocument } from './swaggerDocument.js';
import { applicationsOf, appName, DETAIL_METHODS, LIST_METHODS, modelViewName, READ_ONLY_METHODS } from './views.js';

const SWAGGER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'self'";

export function faceRoutes(services: Services): Middleware {
  const router = new Router();
  // OPTIONS of every model grouped by model: a request meets only its own model's patterns.
  const modelOptions = new RoutesByModel();
  optionsRoutes(services, modelOptions, router);
  schemaRoutes(services, router);

  const metrics = metricsFor(services);
  router.get(['/metrics', '/metrics/'], async (ctx) => {
    ctx.body = await metrics.render(services);
    ctx.set('Content-Type', 'text/plain; version=0.0.4; charset=utf-8');
    ctx.set('Cache-Control', 'no-store');
  });
  // Health: the read models have applied every durable event and the writer accepts
  // writes. The writer's state is the coordinator's own (probed at start, kept through
  // an outage of the log's storage), with the reason and when it retries next.
  router.get(['/healthz', '/healthz/'], (ctx) => {
    const head = services.log.head();
    const position = services.projector.position;
    const lag = Math.max(0, head - position);
    const writer = services.coordinator.health();
    const ok = lag === 0 && writer.state === 'up';
    ctx.status = ok ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    if (writer.retryInSeconds !== undefined) ctx.set('Retry-After', String(writer.retryInSeconds));
    const { state, ...detail } = writer;
    ctx.body = {
      status: ok ? 'ok' : 'unavailable',
      projector: { position, head, lag },
      writer: state,
      ...(state === 'up' ? {} : { writer_detail: detail }),
    };
  });
  // Readiness for traffic: not while catching up after start, nor while lagging beyond
  // the bounds, nor while the log's head is unconfirmed for longer than the time bound
  // (log-unreachable), but ready while a little behind under write load (no flapping); a
  // writer also needs its writer up. A replica names its role and where writes go.
  router.get(['/readyz', '/readyz/'], (ctx) => {
    const report = services.readiness?.report() ?? readyOnceServing(services);
    const writer = services.coordinator.health();
    const reader = services.config.role === 'reader';
    const ok = report.ready && (reader || writer.state === 'up');
    ctx.status = ok ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    if (!ok) ctx.set('Retry-After', String(writer.retryInSeconds ?? 1));
    const { state, ...detail } = writer;
    ctx.body = {
      status: ok ? 'ok' : 'unavailable',
      role: services.config.role,
      phase: report.phase,
      projector: {
        position: report.position,
        head: report.head,
        lag: report.lag,
        behind_seconds: report.behindSeconds,
        head_age_seconds: report.headAgeSeconds,
      },
      ...(reader
        ? { writer_url: services.config.writerUrl }
        : { writer: state, ...(state === 'up' ? {} : { writer_detail: detail }) }),
    };
  });
  // Liveness: the process answers.
  router.get(['/livez', '/livez/'], (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });
  router.get(['/static/:folder/:file', '/favicon.ico'], (ctx) => {
    const asset =
      ctx.path === '/favicon.ico'
        ? staticAsset('swagger-ui', 'favicon-32x32.png')
        : staticAsset(String(ctx.params.folder), String(ctx.params.file));
    if (!asset) {
      ctx.status = 404;
      ctx.body = { detail: 'Not found.' };
      return;
    }
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('ETag', asset.etag);
    if (ctx.get('If-None-Match') === asset.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = asset.type;
    ctx.body = asset.content;
  });
  const models = modelOptions.routes();
  const rest = router.routes() as unknown as Middleware;
  return (ctx, next) => models(ctx, () => rest(ctx, next));
}

/** Without a readiness tracker: caught up since serving began, and ready while at the log's head. */
function readyOnceServing(services: Services) {
  const position = services.projector.position;
  const head = Math.max(services.log.head(), position);
  const ready = head === position;
  return {
    ready,
    phase: ready ? ('ready' as const) : ('lagging' as const),
    position,
    head,
    lag: head - position,
    behindSeconds: 0,
    headAgeSeconds: 0,
  };
}

/** OPTIONS on every model list and detail URL and on the root views: no action permission is needed, only authentication where LOGIN_REQUIRED. */
function optionsRoutes(services: Services, models: RoutesByModel, router: Router): void {
  const principal = (ctx: Context) => ctx.state.principal ?? null;
  const requireLogin = (ctx: Context) => {
    if (services.config.loginRequired && !principal(ctx)) throw new PermissionDeniedError(NOT_AUTHENTICATED);
  };
  const may = (ctx: Context, definition: ModelDefinition) => ({
    add: mayPerform(ctx, services.config, definition, 'add'),
    change: mayPerform(ctx, services.config, definition, 'change'),
  });
  for (const definition of services.registry.all()) {
    const list = `/api/${definition.app}/${definition.path}/`;
    const name = modelViewName(definition);
    models.options(list, (ctx) => {
      requireLogin(ctx);
      ctx.set('Allow', definition.readOnly ? READ_ONLY_METHODS : LIST_METHODS);
      ctx.body = optionsBody(name, definition, false, may(ctx, definition), services.registry);
    });
    models.options(`${list}:id/`, (ctx) => {
      requireLogin(ctx);
      ctx.set('Allow', definition.readOnly ? READ_ONLY_METHODS : DETAIL_METHODS);
      ctx.body = optionsBody(name, definition, true, may(ctx, definition), services.registry);
    });
  }
  const plain = (path: string, name: string, login: boolean) =>
    router.options(path, (ctx) => {
      if (login) requireLogin(ctx);
      ctx.set('Allow', READ_ONLY_METHODS);
      ctx.body = optionsBody(name, null, false, { add: false, change: false });
    });
  plain('/api/', 'API Root', false);
  for (const app of applicationsOf(services.registry)) plain(`/api/${app}/`, appName(app), false);
  plain('/api/status/', 'Status', true);
  plain('/api/plugins/installed-plugins/', 'Installed Plugins', true);
}

/** /api/schema/ (JSON or YAML; OpenAPI 3.0.3, or 3.1 with ?openapi=3.1) and its Swagger UI; NetBox 3.4's Swagger 2.0 document and its Swagger UI at /api/docs/. */
function schemaRoutes(services: Services, router: Router): void {
  const schema = schemaDocument(services);
  const send = (ctx: Context, format: 'json' | 'yaml') => {
    const baseUrl = String(ctx.state.baseUrl);
    const version = new URLSearchParams(ctx.querystring).get('openapi') === '3.1' ? '3.1' : '3.0';
    ctx.set('Cache-Control', 'public, max-age=300');
    if (format === 'yaml') {
      ctx.body = schema.yaml(baseUrl, version);
      ctx.set('Content-Type', 'application/yaml; charset=utf-8');
    } else {
      ctx.body = schema.json(baseUrl, version);
      ctx.set('Content-Type', 'application/json');
    }
  };
  router.get('/api/schema/', (ctx) => {
    const format = new URLSearchParams(ctx.querystring).get('format');
    if (format === 'json' || format === 'openapi') return send(ctx, 'json');
    if (format === 'yaml') return send(ctx, 'yaml');
    if (format !== null && format !== '') {
      ctx.status = 404;
      ctx.body = { detail: 'Not found.' };
      return;
    }
    // drf-spectacular's habit: YAML unless the client asks for JSON.
    const accept = ctx.get('Accept');
    send(ctx, /application\/(vnd\.oai\.openapi\+)?json/.test(accept) ? 'json' : 'yaml');
  });
  const swaggerPage = (schemaUrl: string) => (ctx: Context) => {
    ctx.body = swaggerUiPage(schemaUrl);
    ctx.set('Content-Type', 'text/html; charset=utf-8');
    for (const [name, value] of Object.entries(HTML_SECURITY_HEADERS)) ctx.set(name, value);
    ctx.set('Content-Security-Policy', SWAGGER_CSP);
  };
  router.get('/api/schema/swagger-ui/', swaggerPage('/api/schema/?format=json'));

  // NetBox 3.4's addresses (drf-yasg): Swagger 2.0, which its clients parse.
  const swagger = swaggerDocument(schema, services.config.apiVersion);
  const sendSwagger = (ctx: Context, format: 'json' | 'openapi' | 'yaml') => {
    const baseUrl = String(ctx.state.baseUrl);
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = format === 'yaml' ? swagger.yaml(baseUrl) : swagger.json(baseUrl);
    ctx.set(
      'Content-Type',
      format === 'yaml'
        ? 'application/yaml; charset=utf-8'
        : format === 'openapi'
          ? 'application/openapi+json'
          : 'application/json',
    );
  };
  router.get(['/api/swagger.json', '/api/swagger.json/'], (ctx) => sendSwagger(ctx, 'json'));
  router.get(['/api/swagger.yaml', '/api/swagger.yaml/'], (ctx) => sendSwagger(ctx, 'yaml'));
  const docsPage = swaggerPage('/api/docs/?format=openapi');
  router.get('/api/docs/', (ctx) => {
    const format = new URLSearchParams(ctx.querystring).get('format');
    if (format === 'openapi' || format === 'json' || format === 'yaml') return sendSwagger(ctx, format);
    if (format !== null && format !== '') {
      ctx.status = 404;
      ctx.body = { detail: 'Not found.' };
      return;
    }
    docsPage(ctx);
  });
}

function swaggerUiPage(schemaUrl: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>netledger API – Swagger UI</title>
<link rel="stylesheet" href="/static/swagger-ui/swagger-ui.css">
<link rel="icon" type="image/png" href="/static/swagger-ui/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui" data-schema-url="${escapeHtml(schemaUrl)}"></div>
<script src="/static/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/static/swagger-ui/swagger-ui-standalone-preset.js"></script>
<script src="/static/face/swagger-init.js"></script>
</body>
</html>
`;
}

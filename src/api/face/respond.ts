/**
 * The outermost API middleware of the face: negotiates the renderer before anything
 * runs (bad `?format=` 404, unsatisfiable Accept or API version 406, as DRF does before
 * authentication), then renders whatever JSON body the request produced — compact JSON,
 * JSON indented by `Accept: application/json; indent=N`, or the browsable HTML page —
 * and records the request in the metrics.
 */
import type { Context, Next } from 'koa';
import type { Principal } from '../../auth/authenticateToken.js';
import type { Services } from '../Services.js';
import { HTML_SECURITY_HEADERS, renderBrowsablePage } from './browsable.js';
import { metricsFor } from './metrics.js';
import { negotiate, type Renderer } from './negotiation.js';
import { allowedMethods, describePath } from './views.js';

/** Paths that answer in their own formats (schema documents, documentation pages, static files). */
function negotiatesItself(path: string): boolean {
  return path.startsWith('/api/schema/') || path.startsWith('/api/docs/') || /^\/api\/swagger\.(json|yaml)\/?$/.test(path);
}

/** An EventSource (it always sends `Accept: text/event-stream`): the streaming view decides, not the renderers. */
function wantsEventStream(accept: string): boolean {
  return /(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(accept);
}

/** A body Koa would serialise as JSON: a plain object or array (not text, bytes or a stream). */
function isJsonBody(body: unknown): body is object {
  if (body === null || typeof body !== 'object') return false;
  if (Buffer.isBuffer(body) || body instanceof Uint8Array) return false;
  if (typeof (body as { pipe?: unknown }).pipe === 'function') return false;
  if (typeof (body as { getReader?: unknown }).getReader === 'function') return false;
  return true;
}

/** JSON text as DRF writes it: compact by default, U+2028/U+2029 escaped. */
export function jsonText(body: unknown, indent: number | null): string {
  const text = indent ? JSON.stringify(body, null, indent) : JSON.stringify(body);
  return (text ?? 'null').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function lastValue(querystring: string, name: string): string | null {
  const values = new URLSearchParams(querystring).getAll(name);
  return values.length ? values[values.length - 1] : null;
}

function routeOf(ctx: Context): string {
  const matched = (ctx as unknown as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  if (ctx.status === 301 || ctx.status === 302) return 'redirect';
  return 'unmatched';
}

export function faceMiddleware(services: Services) {
  const metrics = metricsFor(services);
  return async (ctx: Context, next: Next) => {
    const started = performance.now();
    const isApi = ctx.path.startsWith('/api/');
    let renderer: Renderer = 'json';
    let indent: number | null = null;
    let refused = false;
    const negotiation = negotiate(isApi && !negotiatesItself(ctx.path) ? lastValue(ctx.querystring, 'format') : null, ctx.get('Accept') || undefined);
    if ('error' in negotiation) {
      if (isApi && !negotiatesItself(ctx.path) && !(negotiation.error === 406 && wantsEventStream(ctx.get('Accept')))) {
        refused = true;
        ctx.status = negotiation.error;
        ctx.body = { detail: negotiation.detail };
      }
    } else {
      renderer = isApi ? negotiation.renderer : 'json';
      indent = negotiation.indent;
    }
    try {
      if (!refused) await next();
      render(services, ctx, renderer, indent);
    } finally {
      metrics.observe(ctx.method, routeOf(ctx), ctx.status, (performance.now() - started) / 1000);
    }
  };
}

function render(services: Services, ctx: Context, renderer: Renderer, indent: number | null): void {
  if (!isJsonBody(ctx.body)) return;
  const status = ctx.status;
  const isApi = ctx.path.startsWith('/api/');
  const view = isApi ? describePath(services.registry, ctx.path) : { kind: 'other' as const };
  const allow = (ctx.response.get('Allow') as string) || allowedMethods(view);
  if (isApi && allow && !negotiatesItself(ctx.path)) ctx.set('Allow', allow);
  if (renderer === 'html') {
    const principal = ctx.state.principal as Principal | null | undefined;
    const page = renderBrowsablePage({
      method: ctx.method,
      path: ctx.path,
      querystring: ctx.querystring,
      status,
      allow,
      body: ctx.body,
      view,
      username: principal?.user?.username === undefined ? null : String(principal.user.username),
    });
    ctx.body = page;
    ctx.status = status;
    ctx.set('Content-Type', 'text/html; charset=utf-8');
    for (const [name, value] of Object.entries(HTML_SECURITY_HEADERS)) ctx.set(name, value);
    return;
  }
  ctx.body = jsonText(ctx.body, indent);
  ctx.status = status;
  ctx.set('Content-Type', 'application/json');
}

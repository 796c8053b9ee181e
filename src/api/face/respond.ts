/**
 * Content negotiation and response formatting for every request: `negotiationGuard`
 * refuses what no renderer can answer before any view runs; `faceMiddleware`, outermost,
 * renders every JSON body — compact JSON, JSON indented by
 * `Accept: application/json; indent=N`, or the browsable HTML page — and records the
 * request in the metrics.
 */
import type { Context, Next } from 'koa';

import type { Services } from '../Services.js';
import { HTML_SECURITY_HEADERS, renderBrowsablePage } from './browsable.js';
import { metricsFor } from './metrics.js';
import { negotiate, type Renderer } from './negotiation.js';
import { parsedBody, rawJsonBytes } from './RawJson.js';
import { allowedMethods, describePath } from './views.js';

/** Paths that answer in their own formats (schema documents, documentation pages, static files). */
function negotiatesItself(path: string): boolean {
  return (
    path.startsWith('/api/schema/') || path.startsWith('/api/docs/') || /^\/api\/swagger\.(json|yaml)\/?$/.test(path)
  );
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

const LINE_SEPARATORS = /[\u2028\u2029]/;

/** JSON text as DRF writes it: compact by default, U+2028/U+2029 escaped. */
export function jsonText(body: unknown, indent: number | null): string {
  body = parsedBody(body);
  const text = indent ? JSON.stringify(body, null, indent) : JSON.stringify(body);
  if (text === undefined) return 'null';
  // One scan in the common case (no line or paragraph separator), not two replacing ones.
  return LINE_SEPARATORS.test(text) ? text.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029') : text;
}

function lastValue(querystring: string, name: string): string | null {
  const values = new URLSearchParams(querystring).getAll(name);
  return values.length ? values[values.length - 1] : null;
}

export function routeOf(ctx: Context): string {
  const matched = (ctx as unknown as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  if (ctx.status === 301 || ctx.status === 302) return 'redirect';
  return 'unmatched';
}

/** The renderer negotiation picked for this request, or why it must be refused. */
function negotiationOf(ctx: Context) {
  const own = ctx.path.startsWith('/api/') && !negotiatesItself(ctx.path);
  const negotiation = negotiate(own ? lastValue(ctx.querystring, 'format') : null, ctx.get('Accept') || undefined);
  if ('error' in negotiation) {
    const refuse = own && !(negotiation.error === 406 && wantsEventStream(ctx.get('Accept')));
    return { refuse: refuse ? negotiation : null, renderer: 'json' as Renderer, indent: null };
  }
  return {
    refuse: null,
    renderer: ctx.path.startsWith('/api/') ? negotiation.renderer : ('json' as Renderer),
    indent: negotiation.indent,
  };
}

/**
 * Outermost: renders whatever JSON body the request produced (errors included) as
 * compact or indented JSON or as the browsable page, and records the request in the
 * metrics.
 */
export function faceMiddleware(services: Services) {
  const metrics = metricsFor(services);
  return async (ctx: Context, next: Next) => {
    const started = performance.now();
    const { renderer, indent } = negotiationOf(ctx);
    try {
      await next();
      render(services, ctx, renderer, indent);
    } finally {
      metrics.observe(ctx.method, routeOf(ctx), ctx.status, (performance.now() - started) / 1000);
    }
  };
}

/**
 * Before authentication and any view (as DRF negotiates): a `?format=` no renderer has
 * is 404, an Accept header none satisfies (or a foreign API version) 406.
 */
export async function negotiationGuard(ctx: Context, next: Next) {
  const { refuse } = negotiationOf(ctx);
  if (refuse) {
    ctx.status = refuse.error;
    ctx.body = { detail: refuse.detail };
    return;
  }
  await next();
}

function render(services: Services, ctx: Context, renderer: Renderer, indent: number | null): void {
  if (!isJsonBody(ctx.body)) return;
  const status = ctx.status;
  const isApi = ctx.path.startsWith('/api/');
  const view = isApi ? describePath(services.registry, ctx.path) : { kind: 'other' as const };
  const allow = (ctx.response.get('Allow') as string) || allowedMethods(view);
  if (isApi && allow && !negotiatesItself(ctx.path)) ctx.set('Allow', allow);
  if (renderer === 'html') {
    const principal = ctx.state.principal;
    const page = renderBrowsablePage({
      method: ctx.method,
      path: ctx.path,
      querystring: ctx.querystring,
      status,
      allow,
      body: parsedBody(ctx.body),
      view,
      username: principal?.user?.username === undefined ? null : String(principal.user.username),
    });
    ctx.body = page;
    ctx.status = status;
    ctx.set('Content-Type', 'text/html; charset=utf-8');
    for (const [name, value] of Object.entries(HTML_SECURITY_HEADERS)) ctx.set(name, value);
    return;
  }
  // Rows the render cache holds are encoded already (escaped by jsonText when kept).
  const bytes = indent ? null : rawJsonBytes(ctx.body, (value) => jsonText(value, null));
  ctx.body = bytes ?? jsonText(ctx.body, indent);
  ctx.status = status;
  ctx.set('Content-Type', 'application/json');
}

/**
 * The browsable API: what a browser gets for an /api/ URL (`Accept: text/html` or
 * `?format=api`). Server-rendered HTML, no build step: the response's JSON
 * pretty-printed with URLs as links, breadcrumbs, the allowed methods, pagination
 * links, login/logout links and a small form that sends JSON with fetch (its script
 * is a static file, so the page can forbid inline scripts). Every value is escaped.
 */
import { STATUS_CODES } from 'node:http';

import { writableFields } from '../../commands/writeSchema.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import { escapeHtml, jsonToHtml, safeHref, titleWords } from './html.js';
import { type ApiView, appName, modelViewName } from './views.js';

export interface PageInput {
  method: string;
  /** Path of the request (always starts with /api/). */
  path: string;
  querystring: string;
  status: number;
  allow: string;
  body: unknown;
  view: ApiView;
  /** Username of the caller, null when anonymous. */
  username: string | null;
}

/** Headers of the browsable pages: no inline script, no framing by others, no sniffing. */
export const HTML_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'",
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

interface Crumb {
  label: string;
  href: string | null;
}

function breadcrumbs(input: PageInput): Crumb[] {
  const crumbs: Crumb[] = [{ label: 'API Root', href: '/api/' }];
  const segments = input.path
    .replace(/^\/api\/?/, '')
    .split('/')
    .filter(Boolean);
  const view = input.view;
  let href = '/api/';
  segments.forEach((segment, i) => {
    href += `${segment}/`;
    let label = titleWords(segment.replace(/[-_]/g, ' '));
    if (i === 0) label = appName(segment);
    if (view.kind === 'list' || view.kind === 'detail') {
      if (i === 1) label = titleWords(view.definition.verboseNamePlural);
      if (i === 2 && view.kind === 'detail') label = displayOf(input.body) ?? segment;
    }
    crumbs.push({ label, href });
  });
  crumbs[crumbs.length - 1].href = null;
  return crumbs;
}

function displayOf(body: unknown): string | null {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const display = (body as Record<string, unknown>).display;
    if (typeof display === 'string' && display !== '') return display;
  }
  return null;
}

function viewName(input: PageInput): string {
  const view = input.view;
  switch (view.kind) {
    case 'root':
      return 'API Root';
    case 'app':
      return appName(view.app);
    case 'list':
      return `${modelViewName(view.definition)} List`;
    case 'detail':
      return displayOf(input.body)
        ? `${modelViewName(view.definition)}: ${displayOf(input.body)}`
        : modelViewName(view.definition);
    default: {
      const last = input.path.split('/').filter(Boolean).pop() ?? 'api';
      return titleWords(last.replace(/[-_]/g, ' '));
    }
  }
}

/** The writable fields of an object as a client would send them back (choices and relations by value/id). */
export function writableForm(definition: ModelDefinition, body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const object = body as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of writableFields(definition)) {
    if (field.writeOnly || field.secret || !(field.name in object)) continue;
    const value = object[field.name];
    out[field.name] = toWritable(value);
  }
  return out;
}

function toWritable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toWritable);
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if ('value' in o && 'label' in o) return o.value;
    if (typeof o.id === 'number') return o.id;
  }
  return value;
}

function formContent(input: PageInput): string {
  const view = input.view;
  if (view.kind === 'detail' && input.status === 200)
    return JSON.stringify(writableForm(view.definition, input.body), null, 4);
  return '{\n    \n}';
}

function pagination(input: PageInput): string {
  const body = input.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return '';
  const page = body as Record<string, unknown>;
  if (!('results' in page) || !('next' in page) || !Array.isArray(page.results)) return '';
  const link = (value: unknown, rel: string, text: string) => {
    const href = typeof value === 'string' ? safeHref(value) : null;
    return href ? `<a rel="${rel}" href="${escapeHtml(href)}">${text}</a>` : `<span class="disabled">${text}</span>`;
  };
  const offset = Number(new URLSearchParams(input.querystring).get('offset') ?? 0) || 0;
  const shown = page.results.length;
  const count = typeof page.count === 'number' ? page.count : shown;
  const range = shown === 0 ? `0 of ${count}` : `${offset + 1}–${offset + shown} of ${count}`;
  return `<nav class="pagination" aria-label="pagination">${link(page.previous, 'prev', '« Previous')} <span class="range">${escapeHtml(range)}</span> ${link(page.next, 'next', 'Next »')}</nav>`;
}

export function renderBrowsablePage(input: PageInput): string {
  const name = viewName(input);
  const crumbs = breadcrumbs(input)
    .map((c) =>
      c.href
        ? `<li><a href="${escapeHtml(c.href)}">${escapeHtml(c.label)}</a></li>`
        : `<li class="active" aria-current="page">${escapeHtml(c.label)}</li>`,
    )
    .join('');
  const fullPath = input.path + (input.querystring ? `?${input.querystring}` : '');
  const jsonLink = (() => {
    const params = new URLSearchParams(input.querystring);
    params.set('format', 'json');
    return `${input.path}?${params.toString()}`;
  })();
  const next = encodeURIComponent(fullPath);
  const user = input.username
    ? `<span class="user">${escapeHtml(input.username)}</span> <a href="/logout/?next=${escapeHtml(next)}">Log out</a>`
    : `<a href="/login/?next=${escapeHtml(next)}">Log in</a>`;
  const methods = input.allow
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m && m !== 'HEAD');
  const options = methods
    .map((m) => `<option${m === defaultMethod(input, methods) ? ' selected' : ''}>${escapeHtml(m)}</option>`)
    .join('');
  const statusText = STATUS_CODES[input.status] ?? '';
  const headerLines = [
    `<b>HTTP ${input.status} ${escapeHtml(statusText)}</b>`,
    input.allow ? `<b>Allow:</b> ${escapeHtml(input.allow)}` : '',
    '<b>Content-Type:</b> application/json',
    '<b>Vary:</b> Accept',
  ]
    .filter(Boolean)
    .join('\n');
  const form = methods.length
    ? `<section class="request-form">
<h2>Send a request</h2>
<form id="request-form" data-url="${escapeHtml(input.path)}">
<div class="row"><label>Method <select name="method">${options}</select></label>
<label>API token <input name="token" type="password" autocomplete="off" placeholder="optional: uses your session otherwise"></label></div>
<label class="content">Content (application/json)<textarea name="content" rows="10" spellcheck="false">${escapeHtml(formContent(input))}</textarea></label>
<button type="submit">Send</button>
</form>
<pre id="request-result" class="json" hidden></pre>
</section>`
    : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(name)} – netledger REST API</title>
<link rel="stylesheet" href="/static/face/browsable.css">
<script src="/static/face/browsable.js" defer></script>
</head>
<body>
<header class="navbar">
<a class="brand" href="/api/">netledger REST API</a>
<nav class="links"><a href="/api/schema/swagger-ui/">API documentation</a> ${user}</nav>
</header>
<main>
<nav aria-label="breadcrumb"><ol class="breadcrumb">${crumbs}</ol></nav>
<div class="page-header">
<h1>${escapeHtml(name)}</h1>
<div class="formats">Format: <a href="${escapeHtml(jsonLink)}">json</a></div>
</div>
<div class="request-info"><pre><b>${escapeHtml(input.method)}</b> ${escapeHtml(fullPath)}</pre></div>
<div class="response-info">
<pre class="headers">${headerLines}</pre>
<pre class="json" id="response-body">${jsonToHtml(input.body)}</pre>
</div>
${pagination(input)}
${form}
</main>
</body>
</html>
`;
}

function defaultMethod(input: PageInput, methods: string[]): string {
  if (input.view.kind === 'list' && methods.includes('POST')) return 'POST';
  if (input.view.kind === 'detail' && methods.includes('PATCH')) return 'PATCH';
  return methods[0] ?? 'GET';
}

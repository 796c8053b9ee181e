import { createHmac } from 'node:crypto';

import { TemplateError } from '../templates/TemplateError.js';
import type { TemplateRenderer } from '../templates/TemplateRenderer.js';
import type { WebhookContext } from './payload.js';

/** The parts of a webhook's definition a request is made from (its secret in clear, '' for none). */
export interface WebhookDefinition {
  payload_url: string;
  http_method: string;
  http_content_type: string;
  additional_headers: string;
  body_template: string;
  secret: string;
}

export interface WebhookRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The receiver checks the body with this: HMAC-SHA512 of the exact body bytes keyed by the secret, in hex. */
export function hookSignature(body: string | Buffer, secret: string): string {
  return createHmac('sha512', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/**
 * `Name: Value` lines (as rendered), split at the first colon, trimmed; blank lines are
 * skipped, a line without a colon is an error as in NetBox.
 */
export function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r\n|\n|\r/)) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon < 0) throw new TemplateError(`Invalid header line (no colon): ${line}`, 'additional_headers');
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

const TEMPLATE_SYNTAX = /\{[{%#]/;

/**
 * The webhook's URL, headers and body template rendered as Jinja2 over the context, in one
 * sandboxed job. Text without template syntax is its own rendering, so a webhook that uses
 * none (most: NetBox's default body is the context as JSON) costs no render at all.
 */
async function renderParts(
  webhook: WebhookDefinition,
  context: WebhookContext,
  templates: TemplateRenderer,
): Promise<string[]> {
  const parts = [
    { name: 'payload_url', code: webhook.payload_url },
    { name: 'additional_headers', code: webhook.additional_headers },
    { name: 'body_template', code: webhook.body_template },
  ];
  if (!parts.some((part) => TEMPLATE_SYNTAX.test(part.code))) return parts.map((part) => part.code);
  return templates.render({ templates: parts, context: context as unknown as Record<string, unknown> });
}

/** JSON spaced as Python's json.dumps prints it (', ' and ': '), so receivers see NetBox's bytes. */
export function pythonJson(value: unknown): string {
  if (value === null || typeof value !== 'object')
    return JSON.stringify(value ?? null).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`).join(', ')}}`;
}

/** The HTTP request NetBox's worker would send for this context (without a body template: the context as JSON). */
export async function webhookRequest(
  webhook: WebhookDefinition,
  context: WebhookContext,
  templates: TemplateRenderer,
): Promise<WebhookRequest> {
  const [url, headerLines, bodyTemplate] = await renderParts(webhook, context, templates);
  const headers: Record<string, string> = { 'Content-Type': webhook.http_content_type, ...parseHeaders(headerLines!) };
  const body = webhook.body_template ? bodyTemplate! : pythonJson(context);
  if (webhook.secret !== '') headers['X-Hook-Signature'] = hookSignature(Buffer.from(body, 'utf8'), webhook.secret);
  return { method: webhook.http_method, url: url!, headers, body };
}

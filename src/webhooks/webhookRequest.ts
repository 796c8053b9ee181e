import { createHmac } from 'node:crypto';
import type { WebhookContext } from './payload.js';
import { renderTemplate } from '../templates/jinjaTemplates.js';

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
 * `Name: Value` lines (rendered first), split at the first colon, trimmed; blank lines are
 * skipped, a line without a colon is an error as in NetBox.
 */
export function renderHeaders(template: string, context: WebhookContext): Record<string, string> {
  if (!template) return {};
  const headers: Record<string, string> = {};
  for (const line of renderTemplate(template, context as unknown as Record<string, unknown>).split(/\r\n|\n|\r/)) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon < 0) throw new Error(`Invalid header line (no colon): ${line}`);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** The body template rendered, or without one the context as JSON (NetBox's default body). */
export function renderBody(webhook: WebhookDefinition, context: WebhookContext): string {
  if (webhook.body_template) return renderTemplate(webhook.body_template, context as unknown as Record<string, unknown>);
  return pythonJson(context);
}

/** JSON spaced as Python's json.dumps prints it (', ' and ': '), so receivers see NetBox's bytes. */
export function pythonJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`).join(', ')}}`;
}

/** The HTTP request NetBox's worker would send for this context. */
export function webhookRequest(webhook: WebhookDefinition, context: WebhookContext): WebhookRequest {
  const headers: Record<string, string> = { 'Content-Type': webhook.http_content_type, ...renderHeaders(webhook.additional_headers, context) };
  const body = renderBody(webhook, context);
  if (webhook.secret !== '') headers['X-Hook-Signature'] = hookSignature(Buffer.from(body, 'utf8'), webhook.secret);
  return { method: webhook.http_method, url: renderTemplate(webhook.payload_url, context as unknown as Record<string, unknown>), headers, body };
}

/**
 * HTML building blocks. Every piece of text that reaches a page goes through `escapeHtml`
 * (element content and attribute values alike); links are made only from http(s) URLs.
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** An http(s) URL that may become a link; anything else (javascript:, data:, relative text) is not. */
export function safeHref(value: string): string | null {
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** JSON text of a string, with the line separators a browser would break on escaped. */
function jsonString(value: string): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * A JSON value pretty-printed (4 spaces, as the browsable API of Django REST framework)
 * as HTML: keys, strings, numbers and literals in spans, URLs as links.
 */
export function jsonToHtml(value: unknown, depth = 0): string {
  const pad = '    '.repeat(depth);
  const inner = '    '.repeat(depth + 1);
  if (value === null || value === undefined) return '<span class="null">null</span>';
  if (typeof value === 'string') {
    const href = safeHref(value);
    const text = escapeHtml(jsonString(value));
    return href
      ? `<a class="str" href="${escapeHtml(href)}" rel="nofollow noopener">${text}</a>`
      : `<span class="str">${text}</span>`;
  }
  if (typeof value === 'number') return `<span class="num">${Number.isFinite(value) ? String(value) : 'null'}</span>`;
  if (typeof value === 'boolean') return `<span class="bool">${value}</span>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + jsonToHtml(item, depth + 1)).join(',\n')}\n${pad}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const lines = entries.map(
      ([k, v]) => `${inner}<span class="key">${escapeHtml(jsonString(k))}</span>: ${jsonToHtml(v, depth + 1)}`,
    );
    return `{\n${lines.join(',\n')}\n${pad}}`;
  }
  return escapeHtml(String(value));
}

/** "IP address" → "IP Address": each word's first letter capitalised, the rest kept (NetBox's view names). */
export function titleWords(text: string): string {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
}

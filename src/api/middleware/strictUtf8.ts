import type { Context, Next } from 'koa';

/**
 * Text that arrives as bytes is decoded strictly: replacing a malformed sequence by
 * U+FFFD would store something other than what the client sent, and nobody would know.
 */

export const BODY_NOT_UTF8 = 'Request body is not valid UTF-8.';
export const QUERY_NOT_UTF8 = 'Query string is not valid UTF-8.';

// ignoreBOM keeps a byte-order mark in the text, so JSON.parse refuses it as before.
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text the bytes encode, or null when they are not well-formed UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * Whether every run of %XX escapes in application/x-www-form-urlencoded text (a query
 * string, a form body) decodes to well-formed UTF-8. A `%` not followed by two hex
 * digits encodes nothing and stays literal, as the parsers read it.
 */
export function percentEncodingIsUtf8(text: string): boolean {
  for (const [run] of text.matchAll(PERCENT_RUN)) {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(3 * i + 1, 3 * i + 3), 16);
    if (decodeUtf8(bytes) === null) return false;
  }
  return true;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A string (key or value) in parsed JSON holding a lone surrogate (`"\ud800"` is valid
 * JSON but no character): UTF-8 stores (MongoDB, exports) would turn it into U+FFFD.
 */
export function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasLoneSurrogate);
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (LONE_SURROGATE.test(key) || hasLoneSurrogate(child)) return true;
  }
  return false;
}

/**
 * A query string whose escapes are not UTF-8 is 400 before any view reads it (the
 * parsers would substitute U+FFFD). Raw bytes above 0x7F never get here: Node's HTTP
 * parser refuses them in the request line.
 */
export async function strictQueryString(ctx: Context, next: Next) {
  if (!percentEncodingIsUtf8(ctx.querystring)) {
    ctx.status = 400;
    ctx.body = { detail: QUERY_NOT_UTF8 };
    return;
  }
  await next();
}

import type { IncomingMessage } from 'node:http';

/**
 * Request headers a plain read may carry and still be answered from the answer cache;
 * any other header (a cookie, a conditional, a proxy's forwarding, a read position, a
 * branch...) could change the answer, so such a request takes the whole middleware chain.
 * Host and Accept shape the answer (its links, its format): they are part of the key.
 */
const HARMLESS_HEADERS = new Set([
  'host',
  'authorization',
  'accept',
  'accept-encoding',
  'accept-language',
  'user-agent',
  'connection',
  'keep-alive',
  'cache-control',
  'pragma',
  // Clients (pynetbox among them) name a JSON body type on every request, GETs included.
  'content-type',
  // Sent by every fetch(); the service reads none of the Fetch metadata.
  'sec-fetch-mode',
]);

/**
 * Query parameters whose answers do not depend on the read models alone (the change log's
 * index, a template's run, another renderer, the past): never kept.
 */
const UNCACHED_PARAMETERS = ['created_by_request', 'export', 'format', 'as_of'];

/**
 * The request part of an answer's key (method, host, Accept and URL), or null when the
 * request is not a plain read of the API: not a GET, a body, a header outside the
 * harmless ones, or a parameter whose answer the read models alone do not decide.
 */
export function plainReadKey(req: IncomingMessage): string | null {
  if (req.method !== 'GET') return null;
  const url = req.url ?? '';
  if (!url.startsWith('/api/')) return null;
  const headers = req.headers;
  for (const name in headers) if (!HARMLESS_HEADERS.has(name)) return null;
  const query = url.indexOf('?');
  if (query >= 0) {
    let search: string;
    try {
      search = decodeURIComponent(url.slice(query + 1)).toLowerCase();
    } catch {
      return null;
    }
    if (UNCACHED_PARAMETERS.some((name) => search.includes(name))) return null;
  }
  return `${headers.host ?? ''}\n${headers.accept ?? ''}\n${url}`;
}

/** The caller an answer was made for: the token's id, or anonymous. */
export function callerKey(token: { id: unknown } | null | undefined): string {
  return token ? `token:${String(token.id)}` : 'anonymous';
}

/** Where the middleware chain finds the request id a missed plain read already used (for its token's last_used). */
export const LEAN_REQUEST_ID = Symbol('netledger.requestId');

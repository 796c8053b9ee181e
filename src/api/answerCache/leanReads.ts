import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

import { metricsFor } from '../face/metrics.js';
import type { Services } from '../Services.js';
import type { AnswerCache } from './AnswerCache.js';
import { callerKey, LEAN_REQUEST_ID, plainReadKey } from './plainRead.js';

/**
 * In front of the middleware chain: a plain read whose answer the cache holds for this
 * caller at the read models' current position is sent as it is, in one write, after the
 * same token check as any request (so a revoked, expired or address-bound token is
 * refused at once, by the chain). Everything else, and every miss, goes down the chain.
 */
export function leanReads(services: Services, cache: AnswerCache, chain: RequestListener): RequestListener {
  if (!cache.enabled) return chain;
  return (req, res) => {
    const request = plainReadKey(req);
    if (request === null || !cache.holdsRequest(request)) return chain(req, res);
    answer(services, cache, request, req, res, chain).catch(() => chain(req, res));
  };
}

async function answer(
  services: Services,
  cache: AnswerCache,
  request: string,
  req: IncomingMessage,
  res: ServerResponse,
  chain: RequestListener,
): Promise<void> {
  const started = performance.now();
  const requestId = randomUUID();
  const authenticated = await services.auth.authenticateToken(
    req.headers.authorization,
    { socketAddress: req.socket.remoteAddress, header: (name) => headerOf(req, name) },
    requestId,
  );
  // Read models behind the log (a write committed a moment ago, this token's last_used among
  // them) answer through the chain, which waits for them.
  const position = services.projector.position;
  const found =
    'principal' in authenticated &&
    position === services.log.head() &&
    cache.get(request, callerKey(authenticated.principal?.token), position);
  if (!found) {
    (req as IncomingMessage & { [LEAN_REQUEST_ID]?: string })[LEAN_REQUEST_ID] = requestId;
    return chain(req, res);
  }
  const headers: string[] = ['X-Request-ID', requestId, 'Content-Length', String(found.body.length)];
  for (const [name, value] of found.headers) headers.push(name, value);
  res.writeHead(200, headers);
  res.end(found.body);
  const ms = performance.now() - started;
  metricsFor(services).observe('GET', found.route, 200, ms / 1000);
  services.logger({
    level: 'info',
    requestId,
    method: 'GET',
    path: pathOf(req.url ?? '/'),
    status: 200,
    user: found.user,
    ms: Math.round(ms * 100) / 100,
  });
}

function headerOf(req: IncomingMessage, name: string): string {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

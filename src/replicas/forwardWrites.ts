import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';

import type { Context, Next } from 'koa';

/** Methods a replica answers itself; every other method may write and goes to the writer. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Connection-level headers, which belong to one hop and are never passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** A message's own hop-by-hop headers: the standard ones and those its Connection header names (RFC 9110, 7.6.1). */
function hopByHop(headers: http.IncomingHttpHeaders): Set<string> {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  return new Set([...HOP_BY_HOP, ...named.filter(Boolean)]);
}

const VIA = '1.1 netledger-replica';
/** A writer that does not accept the connection within this time counts as unreachable. */
const CONNECT_TIMEOUT_MS = 5_000;
/** How long a writer that has the whole request may take to answer, unless told otherwise (WRITER_TIMEOUT). */
const DEFAULT_ANSWER_TIMEOUT_MS = 120_000;
/** Retry-After for a write the replica could not pass on. */
const RETRY_AFTER_SECONDS = 5;
/** Errors that happen before anything of the request reached the writer: the write was certainly not made. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'CONNECT_TIMEOUT',
]);

export interface WriteForwarding {
  /** The writer's origin (WRITER_URL), or null: writes are refused with a pointer to the writer. */
  writerUrl: string | null;
  /** The client's address as this replica finds it (its own TRUSTED_PROXIES), or null. */
  clientAddress: (ctx: Context) => string | null;
  logger: (entry: Record<string, unknown>) => void;
  /**
   * How long the writer may take to answer once it has the whole request (ms; 120 s). Longer
   * than the writer's own bounds on a write (the log's outcome wait and the projection
   * wait, 30 s each), so that a writer that is merely slow answers for itself.
   */
  answerTimeoutMs?: number;
}

/**
 * A read replica's handling of writes: every request whose method may write (POST,
 * PUT, PATCH, DELETE and anything unknown; token provisioning and /login/ included) is
 * passed to the writer as it came (method, path, query, body streamed, every end-to-end
 * header: Authorization, cookies, Content-Type, If-Match, Idempotency-Key ...) and the
 * writer's answer is streamed back with its headers, X-Request-ID and
 * X-Netledger-Position included. The original Host stays, so the links and the CSRF
 * origin the writer works out are the ones the client used. X-Real-IP names the client
 * as this replica found it, replacing what the client sent: a writer that trusts the
 * replica (TRUSTED_PROXIES, for token allowed_ips) takes it before X-Forwarded-For, to
 * which the replica appends its peer.
 *
 * Without WRITER_URL, or with the writer unreachable, the write is answered 503 with
 * Retry-After and a pointer to the writer (X-Netledger-Writer and the detail). A writer
 * that fails after the request reached it is answered 502: the write may have been
 * made, which the client finds out with its Idempotency-Key or `created_by_request`; one
 * that has the whole request and does not answer within `answerTimeoutMs` is answered 504,
 * with the same caveat (a writer that hangs would otherwise hold the client, and the
 * replica's connection, for good).
 */
export function forwardWrites(options: WriteForwarding) {
  return async (ctx: Context, next: Next) => {
    if (READ_METHODS.has(ctx.method)) return next();
    if (!options.writerUrl) {
      refuse(
        ctx,
        503,
        'This is a read replica: it takes no writes. Send writes to the writer (this replica has no WRITER_URL to forward them to).',
      );
      return;
    }
    if (/netledger-replica/.test(ctx.get('Via'))) {
      // Forwarded once already: WRITER_URL leads to a replica, and forwarding again would loop.
      refuse(
        ctx,
        503,
        `This read replica received a write another replica forwarded: WRITER_URL (${options.writerUrl}) must name the writer, not a replica.`,
        options.writerUrl,
      );
      return;
    }
    await forward(ctx, { ...options, writerUrl: options.writerUrl });
  };
}

function refuse(ctx: Context, status: number, detail: string, writerUrl?: string): void {
  ctx.status = status;
  ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
  if (writerUrl) ctx.set('X-Netledger-Writer', writerUrl);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { detail };
}

function forward(
  ctx: Context,
  {
    writerUrl,
    clientAddress,
    logger,
    answerTimeoutMs = DEFAULT_ANSWER_TIMEOUT_MS,
  }: WriteForwarding & { writerUrl: string },
): Promise<void> {
  // The request target is appended to the writer's origin, never resolved against it: a
  // target such as '//elsewhere/' would otherwise send the client's credentials to another host.
  const target = new URL(`${new URL(writerUrl).origin}/${ctx.originalUrl.replace(/^\/+/, '')}`);
  const tls = target.protocol === 'https:';
  const headers: http.OutgoingHttpHeaders = {};
  const requestHops = hopByHop(ctx.req.headers);
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value !== undefined && !requestHops.has(name)) headers[name] = value;
  }
  const client = ctx.ip || ctx.req.socket.remoteAddress || '';
  const previous = ctx.get('X-Forwarded-For');
  headers['x-forwarded-for'] = previous ? `${previous}, ${client}` : client;
  // The client's own X-Real-IP would be believed by a writer that trusts this replica.
  headers['x-real-ip'] = clientAddress(ctx) ?? client;
  // The origin the client addressed (its own proxy's forwarded names included), so the
  // writer's links name what the client used.
  const origin = new URL(String(ctx.state.baseUrl));
  headers['x-forwarded-proto'] = origin.protocol.replace(/:$/, '');
  headers['x-forwarded-host'] = origin.host;
  headers.via = [ctx.get('Via'), VIA].filter(Boolean).join(', ');
  // Node would take the TLS server name from the Host header, which names this replica:
  // the writer's certificate is checked against the writer's own name ('': an IP, sent as no name).
  const servername = tls ? (isIP(target.hostname) === 0 ? target.hostname : '') : undefined;

  return new Promise<void>((resolve) => {
    let connected = false;
    let answered = false;
    let cutShort = false;
    const request = (tls ? https : http).request(target, { method: ctx.method, headers, servername });
    const connectTimer = setTimeout(
      () => request.destroy(Object.assign(new Error('connect timeout'), { code: 'CONNECT_TIMEOUT' })),
      CONNECT_TIMEOUT_MS,
    );
    // Counted from the last byte sent: a slow upload is bounded by the replica's own REQUEST_TIMEOUT.
    let answerTimer: NodeJS.Timeout | undefined;
    request.once('finish', () => {
      if (answered) return;
      answerTimer = setTimeout(
        () =>
          request.destroy(
            Object.assign(new Error(`no answer within ${answerTimeoutMs / 1000} s`), { code: 'ANSWER_TIMEOUT' }),
          ),
        answerTimeoutMs,
      );
    });
    const stopTimers = () => {
      clearTimeout(connectTimer);
      clearTimeout(answerTimer);
    };
    request.on('socket', (socket) => {
      const connectedNow = () => {
        connected = true;
        clearTimeout(connectTimer);
      };
      // A new connection: nothing of the request reaches the writer before its TLS handshake is done.
      if (socket.connecting) socket.once(tls ? 'secureConnect' : 'connect', connectedNow);
      else connectedNow();
    });
    // The writer answered, or failed, before it had the whole body (a 413 on Content-Length
    // reads none of it): it wants no more. Node's client sends no more once the answer is
    // complete, so the body piped into it would stall the client's upload until
    // REQUEST_TIMEOUT. The rest is read and dropped here: the client gets the answer and
    // keeps its connection.
    const stopSending = () => {
      if (ctx.req.readableEnded) return;
      cutShort = true;
      ctx.req.unpipe(request);
      ctx.req.resume();
    };
    request.on('response', (response) => {
      answered = true;
      stopTimers();
      stopSending();
      // A connection left with half a body sent can carry no other request.
      response.once('end', () => cutShort && request.destroy());
      ctx.status = response.statusCode ?? 502;
      const responseHops = hopByHop(response.headers);
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined && !responseHops.has(name)) ctx.set(name, value as string | string[]);
      }
      // Streamed back as it comes; Koa keeps the writer's Content-Type and Content-Length.
      ctx.body = response;
      ctx.set('Via', VIA);
      resolve();
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      stopTimers();
      if (answered) return; // the answer's stream fails with it; Koa ends the response
      stopSending();
      const code = error.code ?? 'ERROR';
      logger({
        level: 'warn',
        requestId: ctx.state.requestId,
        msg: `write not forwarded to the writer at ${writerUrl}: ${error.message}`,
      });
      if (!connected || NOT_SENT.has(code)) {
        refuse(
          ctx,
          503,
          `This is a read replica and the writer at ${writerUrl} is unreachable (${code}): the write was not made. Retry, or send it to the writer.`,
          writerUrl,
        );
      } else if (code === 'ANSWER_TIMEOUT') {
        refuse(
          ctx,
          504,
          `The writer at ${writerUrl} did not answer within ${answerTimeoutMs / 1000} s: the write may or may not have been made: check before repeating it, or repeat it with the same Idempotency-Key.`,
          writerUrl,
        );
      } else {
        refuse(
          ctx,
          502,
          `The writer at ${writerUrl} failed before answering (${code}): the write may or may not have been made: check before repeating it, or repeat it with the same Idempotency-Key.`,
          writerUrl,
        );
      }
      resolve();
    });
    ctx.req.on('aborted', () => {
      stopTimers();
      request.destroy();
    });
    ctx.req.pipe(request);
  });
}

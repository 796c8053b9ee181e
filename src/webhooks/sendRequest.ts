import dns from 'node:dns';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

import type { WebhookRequest } from './webhookRequest.js';

export interface TransportOptions {
  /** false: accept any certificate (NetBox's ssl_verification off). */
  sslVerification: boolean;
  /** A PEM bundle to verify against instead of the system's. */
  caFilePath: string | null;
  /**
   * The whole attempt's deadline: connecting, sending and receiving the whole answer (0:
   * none). Not an idle timeout: a receiver trickling a byte now and then would otherwise
   * hold its webhook's queue for as long as it likes.
   */
  timeoutMs: number;
  /** Aborts the request (the service is stopping). */
  signal?: AbortSignal;
  /**
   * Why an address must not be called (the service's own), or null. Asked for the URL's IP
   * literal, or for every address its host name resolves to, at connect time (so a name
   * cannot resolve to one address when checked and another when called).
   */
  refuseAddress?: (address: string, port: number) => string | null;
}

export interface TransportResult {
  /** The receiver's status, null when it never answered. */
  status: number | null;
  /** Why the attempt failed, null on a 2xx answer. */
  error: string | null;
  /** The request can never succeed (its address is refused): no retry. */
  final?: boolean;
}

/** The code of the lookup error for a refused address. */
const REFUSED = 'EREFUSED_OWN_ADDRESS';

/** Characters of a failed answer's body kept in the delivery record's error. */
const MAX_ERROR_BODY = 500;
/**
 * Bytes of an answer read at most: the record keeps only its start, and a receiver
 * answering hundreds of megabytes must not make every attempt download them.
 */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** One attempt: sends the request and reads the answer (its start); never throws. */
export async function sendRequest(request: WebhookRequest, options: TransportOptions): Promise<TransportResult> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { status: null, error: `Invalid payload URL: ${request.url}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { status: null, error: `Unsupported URL scheme: ${url.protocol}` };
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const refused = net.isIP(literal) ? options.refuseAddress?.(literal, port) : null;
  if (refused) return { status: null, error: refused, final: true };
  let ca: Buffer | undefined;
  if (url.protocol === 'https:' && options.sslVerification && options.caFilePath) {
    try {
      ca = await readFile(options.caFilePath);
    } catch (error) {
      return { status: null, error: `CA file unreadable: ${(error as Error).message}` };
    }
  }
  const body = Buffer.from(request.body, 'utf8');
  return new Promise<TransportResult>((resolve) => {
    let deadline: NodeJS.Timeout | undefined;
    let settled = false;
    let answeredStatus: number | null = null;
    const settle = (result: TransportResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(result);
    };
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(
      url,
      {
        method: request.method,
        headers: { ...request.headers, 'Content-Length': String(body.length) },
        signal: options.signal,
        ...(options.refuseAddress ? { lookup: guardedLookup(options.refuseAddress, port) } : {}),
        ...(url.protocol === 'https:' ? { rejectUnauthorized: options.sslVerification, ca } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        answeredStatus = status;
        const chunks: Buffer[] = [];
        let size = 0;
        const answered = () => {
          if (status >= 200 && status <= 299) return settle({ status, error: null });
          const content = Buffer.concat(chunks).toString('utf8').slice(0, MAX_ERROR_BODY);
          settle({ status, error: `Status ${status} returned with content '${content}'` });
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size < MAX_ANSWER_BYTES) return;
          // Enough read: the status decides, the rest is never downloaded (the connection is not reused).
          answered();
          req.destroy();
        });
        res.on('end', answered);
        res.on('error', (error) => settle({ status, error: error.message }));
      },
    );
    if (options.timeoutMs > 0) {
      deadline = setTimeout(() => {
        settle({ status: answeredStatus, error: `no complete answer within ${options.timeoutMs} ms` });
        req.destroy();
      }, options.timeoutMs);
    }
    req.on('error', (error: NodeJS.ErrnoException) => {
      const final = error.code === REFUSED ? { final: true } : {};
      settle({ status: null, error: error.message || String(error), ...final });
    });
    req.on('close', () => settle({ status: null, error: 'connection closed before the whole answer' }));
    req.end(body);
  });
}

/** dns.lookup that fails for a refused address, so the connection is never made to it. */
function guardedLookup(refuse: (address: string, port: number) => string | null, port: number): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      for (const { address } of addresses) {
        const why = refuse(address, port);
        if (why) return callback(Object.assign(new Error(why), { code: REFUSED }), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

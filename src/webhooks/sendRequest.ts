import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { WebhookRequest } from './webhookRequest.js';

export interface TransportOptions {
  /** false: accept any certificate (NetBox's ssl_verification off). */
  sslVerification: boolean;
  /** A PEM bundle to verify against instead of the system's. */
  caFilePath: string | null;
  timeoutMs: number;
  /** Aborts the request (the service is stopping). */
  signal?: AbortSignal;
}

export interface TransportResult {
  /** The receiver's status, null when it never answered. */
  status: number | null;
  /** Why the attempt failed, null on a 2xx answer. */
  error: string | null;
}

const MAX_ERROR_BODY = 500;

/** One attempt: sends the request and reads the answer; never throws. */
export async function sendRequest(request: WebhookRequest, options: TransportOptions): Promise<TransportResult> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { status: null, error: `Invalid payload URL: ${request.url}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { status: null, error: `Unsupported URL scheme: ${url.protocol}` };
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
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(
      url,
      {
        method: request.method,
        headers: { ...request.headers, 'Content-Length': String(body.length) },
        timeout: options.timeoutMs || undefined,
        signal: options.signal,
        ...(url.protocol === 'https:' ? { rejectUnauthorized: options.sslVerification, ca } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_ERROR_BODY) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status <= 299) resolve({ status, error: null });
          else resolve({ status, error: `Status ${status} returned with content '${Buffer.concat(chunks).toString('utf8').slice(0, MAX_ERROR_BODY)}'` });
        });
        res.on('error', (error) => resolve({ status: res.statusCode ?? null, error: error.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('error', (error) => resolve({ status: null, error: error.message || String(error) }));
    req.end(body);
  });
}

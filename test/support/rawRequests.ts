import http from 'node:http';

import type { TestService } from './startService.js';

/* Requests below the test service's api(): only the headers given, or from a chosen client address. */

/** GET with only the headers given (no admin token unless passed). */
export async function raw(
  service: TestService,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(service.url + path, { method, headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A plain HTTP request over a socket bound to `localAddress`, so the server sees that client address. */
export function requestFrom(
  options: { host: string; port: number; localAddress?: string; family?: number },
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: options.host,
        port: options.port,
        localAddress: options.localAddress,
        family: options.family,
        method,
        path,
        headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            // keep the text
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed });
        });
      },
    );
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

export function portOf(service: TestService): number {
  const address = service.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

import http from 'node:http';

import type { Clock } from '../../src/commands/clock.js';
import type { ApiResponse, TestService } from '../support/startService.js';

/** A clock the test moves by hand. */
export class FakeClock implements Clock {
  constructor(public ms = Date.parse('2030-01-01T00:00:00Z')) {}
  now(): string {
    return new Date(this.ms).toISOString().replace(/Z$/, '000Z');
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export async function ok(response: Promise<ApiResponse> | ApiResponse, status = 201): Promise<any> {
  const r = await response;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A user created by the admin, and a token the admin creates for it (its clear key). */
export async function userWithToken(
  service: TestService,
  username: string,
  options: { password?: string; token?: Record<string, unknown>; user?: Record<string, unknown> } = {},
): Promise<{ user: any; key: string; token: any }> {
  const user = await ok(
    service.api('POST', '/api/users/users/', {
      username,
      password: options.password ?? `${username}-password-1`,
      ...options.user,
    }),
  );
  const token = await ok(service.api('POST', '/api/users/tokens/', { user: user.id, ...options.token }));
  return { user, key: token.key, token };
}

/** A request with another token (or none: key null). */
export function as(service: TestService, key: string | null) {
  return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    service.api(method, path, body, { Authorization: key === null ? '' : `Token ${key}`, ...headers });
}

export async function grant(service: TestService, permission: Record<string, unknown>): Promise<any> {
  return ok(
    service.api('POST', '/api/users/permissions/', {
      name: `p${Math.random().toString(36).slice(2, 8)}`,
      ...permission,
    }),
  );
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

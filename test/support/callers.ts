import type { ApiResponse, TestService } from './startService.js';

/*
 * Callers of a test service other than its admin: users with tokens, their permissions,
 * and requests made with another token (or none).
 */

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

/** A user without permissions and a token for it (write-enabled unless said otherwise). */
export async function plainUserToken(service: TestService, username: string, writeEnabled = true): Promise<string> {
  const user = await service.api('POST', '/api/users/users/', { username, password: 'a-long-password-1' });
  if (user.status !== 201) throw new Error(`user: ${user.status} ${JSON.stringify(user.body)}`);
  return tokenFor(service, user.body.id, writeEnabled);
}

export async function tokenFor(service: TestService, userId: number, writeEnabled: boolean): Promise<string> {
  const token = await service.api('POST', '/api/users/tokens/', { user: userId, write_enabled: writeEnabled });
  if (token.status !== 201 || typeof token.body.key !== 'string')
    throw new Error(`token: ${token.status} ${JSON.stringify(token.body)}`);
  return token.body.key;
}

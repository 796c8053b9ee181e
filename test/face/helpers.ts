import type { TestService } from '../support/startService.js';

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

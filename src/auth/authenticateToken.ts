import type { StoredObject } from '../models/storedObject.js';
import type { PermissionSet } from './permissionSet.js';

export interface Principal {
  user: StoredObject;
  /** The token the request came with (null for a browser session or a password check). */
  token: StoredObject | null;
  isSuperuser: boolean;
  /** false: safe methods only (a token with write_enabled false). */
  writeEnabled: boolean;
  via: 'token' | 'session' | 'password';
  permissions: PermissionSet;
}

export type Authentication = { principal: Principal | null } | { error: string };

/** NetBox's messages (every failure is 403, never 401); "Invalid token" has no final period. */
export const AUTH_MESSAGES = {
  noCredentials: 'Invalid token header. No credentials provided.',
  spaces: 'Invalid token header. Token string should not contain spaces.',
  invalid: 'Invalid token',
  expired: 'Token expired',
  inactive: 'User inactive',
  noAddress:
    'Client IP address could not be determined for validation. Check that the HTTP server is correctly configured to pass the required header(s).',
  address: (ip: string) => `Source IP ${ip} is not permitted to authenticate using this token.`,
} as const;

/**
 * `Authorization: Token <key>` as Django REST framework splits it: the scheme is matched
 * case-insensitively; another scheme (Bearer, Basic) or no header is anonymous; `Token`
 * alone or followed by several words is an error.
 */
export function parseTokenHeader(
  header: string | undefined,
): { key: string } | { anonymous: true } | { error: string } {
  if (!header) return { anonymous: true };
  const parts = header.trim().split(/\s+/);
  if (parts[0].toLowerCase() !== 'token') return { anonymous: true };
  if (parts.length === 1) return { error: AUTH_MESSAGES.noCredentials };
  if (parts.length > 2) return { error: AUTH_MESSAGES.spaces };
  return { key: parts[1] };
}

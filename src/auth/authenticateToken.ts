import type { LookupView, StoredObject } from '../models/types.js';
import type { SecretKeeper } from './secrets.js';

export interface Principal {
  user: StoredObject;
  token: StoredObject | null;
  isSuperuser: boolean;
  writeEnabled: boolean;
}

export type Authentication = { principal: Principal | null } | { error: string };

/**
 * `Authorization: Token <key>`: the key is looked up by its keyed digest, so the
 * comparison never touches the clear key and takes the same time whatever it is.
 * No header (or another scheme) is anonymous; a bad token is an error (403).
 */
export async function authenticateToken(
  header: string | undefined,
  view: LookupView,
  secrets: SecretKeeper,
  now: Date = new Date(),
): Promise<Authentication> {
  if (!header) return { principal: null };
  const [scheme, ...rest] = header.trim().split(/\s+/);
  if (scheme.toLowerCase() !== 'token') return { principal: null };
  if (rest.length === 0) return { error: 'Invalid token header. No credentials provided.' };
  if (rest.length > 1) return { error: 'Invalid token header. Token string should not contain spaces.' };
  const [token] = await view.find('users.token', { key_digest: secrets.tokenDigest(rest[0].toLowerCase()) }, 1);
  if (!token) return { error: 'Invalid token' };
  if (typeof token.expires === 'string' && now.getTime() >= Date.parse(token.expires)) return { error: 'Token expired' };
  const user = await view.get('auth.user', token.user as number);
  if (!user || user.is_active === false) return { error: 'User inactive' };
  return {
    principal: { user, token, isSuperuser: user.is_superuser === true, writeEnabled: token.write_enabled !== false },
  };
}

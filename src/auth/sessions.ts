import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Browser sessions for the browsable API, kept in a signed cookie (no server-side store,
 * so every instance can check it): the user id, a session id (for logout), the session's
 * CSRF token, the expiry and a tag of the user's password hash — changing the password
 * ends every session, as Django's session auth hash does. The cookie is HMAC-SHA256
 * signed with a key derived from SECRET_KEY and is HttpOnly + SameSite=Lax.
 */
export const SESSION_COOKIE = 'sessionid';
/** Readable by scripts of the page (the browsable API's forms send it back as X-CSRFToken). */
export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'X-CSRFToken';
export const CSRF_FIELD = 'csrfmiddlewaretoken';

export interface SessionData {
  /** user id */
  u: number;
  /** session id */
  s: string;
  /** CSRF token of the session */
  c: string;
  /** expiry, ms since the epoch */
  e: number;
  /** tag of the password hash at login */
  h: string;
}

export class SessionCodec {
  private readonly signingKey: Buffer;
  private readonly tagKey: Buffer;

  constructor(secretKey: string) {
    this.signingKey = createHash('sha256').update(`netledger session signing\0${secretKey}`).digest();
    this.tagKey = createHash('sha256').update(`netledger session password tag\0${secretKey}`).digest();
  }

  static newToken(): string {
    return randomBytes(32).toString('base64url');
  }

  passwordTag(passwordHash: unknown): string {
    return createHmac('sha256', this.tagKey)
      .update(String(passwordHash ?? ''))
      .digest('base64url')
      .slice(0, 22);
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.signingKey).update(payload).digest('base64url');
  }

  encode(data: SessionData): string {
    const payload = Buffer.from(JSON.stringify(data)).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The session a cookie holds, if its signature is good (expiry and user are the caller's to check). */
  decode(cookie: string | undefined): SessionData | null {
    if (!cookie || cookie.length > 4096) return null;
    const dot = cookie.indexOf('.');
    if (dot <= 0) return null;
    const payload = cookie.slice(0, dot);
    if (!safeEqual(cookie.slice(dot + 1), this.sign(payload))) return null;
    try {
      const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SessionData;
      const ok =
        Number.isSafeInteger(data.u) &&
        typeof data.s === 'string' &&
        typeof data.c === 'string' &&
        typeof data.e === 'number' &&
        typeof data.h === 'string';
      return ok ? data : null;
    } catch {
      return null;
    }
  }
}

/** Constant-time comparison of two strings (false when the lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

import type { Context, Next } from 'koa';

import type { Principal } from '../../auth/authenticateToken.js';
import type { RequestOrigin } from '../../auth/AuthService.js';
import { CSRF_COOKIE, CSRF_FIELD, CSRF_HEADER, safeEqual, SESSION_COOKIE } from '../../auth/sessions.js';
import { lookupView } from '../../projections/lookupView.js';
import type { Services } from '../Services.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
/** HTML form endpoints that read the form's CSRF field and check it themselves (src/api/auth/routes.ts). */
export const FORM_PATHS = new Set(['/login/', '/logout/']);

export function requestOrigin(ctx: Context): RequestOrigin {
  return { socketAddress: ctx.req.socket.remoteAddress, header: (name) => ctx.get(name) };
}

/** Cookie options of the session and CSRF cookies. */
export function cookieOptions(ctx: Context, httpOnly: boolean, maxAgeMs?: number) {
  return {
    httpOnly,
    sameSite: 'lax' as const,
    secure: ctx.secure,
    path: '/',
    overwrite: true,
    ...(maxAgeMs === undefined ? {} : { maxAge: maxAgeMs }),
  };
}

/**
 * Resolves the caller before any view runs, as NetBox's two authenticators do, in order:
 * a browser session (signed cookie; unsafe methods then need the session's CSRF token),
 * then `Authorization: Token <key>`. A bad token is 403 with NetBox's reason, never 401.
 * The CSRF token of a session is exposed as `ctx.state.csrfToken` for server-rendered forms.
 */
export function authenticate(services: Services) {
  const auth = services.auth;
  return async (ctx: Context, next: Next) => {
    ctx.state.authView = lookupView(services.store);
    let principal: Principal | null = null;
    const session = await auth.authenticateSession(ctx.cookies.get(SESSION_COOKIE));
    if (session) {
      principal = session.principal;
      ctx.state.session = session.session;
      ctx.state.csrfToken = session.session.c;
      if (!SAFE_METHODS.has(ctx.method) && !FORM_PATHS.has(ctx.path)) {
        const reason = csrfFailure(ctx, session.session.c, undefined, services.config.csrfTrustedOrigins);
        if (reason) {
          ctx.status = 403;
          ctx.body = { detail: `CSRF Failed: ${reason}` };
          return;
        }
      }
    } else {
      const result = await auth.authenticateToken(
        ctx.get('Authorization') || undefined,
        requestOrigin(ctx),
        ctx.state.requestId,
      );
      if ('error' in result) {
        ctx.status = 403;
        ctx.body = { detail: result.error };
        return;
      }
      principal = result.principal;
    }
    ctx.state.principal = principal;
    if (principal) ctx.state.eventUser = { id: principal.user.id, username: String(principal.user.username) };
    await next();
  };
}

/**
 * Django's CSRF check for a cookie-authenticated unsafe request: a foreign Origin (not the
 * service's own nor one of CSRF_TRUSTED_ORIGINS) is refused,
 * and the token (header X-CSRFToken, or the form field csrfmiddlewaretoken for HTML forms,
 * which the form route reads itself) must equal the session's. Returns the reason, or null.
 */
export function csrfFailure(ctx: Context, expected: string, formToken?: string, trusted: string[] = []): string | null {
  const origin = ctx.get('Origin');
  const own = String(ctx.state.baseUrl); // requestContext's (Koa 3's ctx.origin is the Origin header itself)
  if (origin && origin !== own && !trusted.includes(origin))
    return `Origin checking failed - ${origin} does not match any trusted origins.`;
  const given = ctx.get(CSRF_HEADER) || formToken || '';
  if (!given) return 'CSRF token missing.';
  if (!safeEqual(given, expected)) return 'CSRF token incorrect.';
  return null;
}

export { CSRF_COOKIE, CSRF_FIELD };

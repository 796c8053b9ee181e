import Router from '@koa/router';
import type { Context } from 'koa';

import type { Principal } from '../../auth/authenticateToken.js';
import type { AuthService } from '../../auth/AuthService.js';
import { CSRF_COOKIE, CSRF_FIELD, SESSION_COOKIE, SessionCodec, type SessionData } from '../../auth/sessions.js';
import { createObjects } from '../../commands/createObjects.js';
import { cookieOptions, csrfFailure, requestOrigin } from '../middleware/authenticate.js';
import { readJsonBody } from '../middleware/readJsonBody.js';
import { type BodyLimits, readRequestBody, refuseBody } from '../middleware/readRequestBody.js';
import { BODY_NOT_UTF8, decodeUtf8, percentEncodingIsUtf8 } from '../middleware/strictUtf8.js';
import { guardWrites } from '../permissions.js';
import type { Services } from '../Services.js';
import { loginPage, logoutPage } from './loginPage.js';

export const PROVISION_PATH = '/api/users/tokens/provision/';
const MAX_FORM_BYTES = 16 * 1024;

export const PROVISION_MESSAGES = {
  missing: 'Username and password must be provided to provision a token.',
  invalid: 'Invalid username/password',
  noPermission: 'This user does not have permission to create tokens.',
} as const;

const LOGIN_FAILED = 'Please enter a correct username and password. Note that both fields may be case-sensitive.';

/**
 * Routes of the auth work that are not model views: token provisioning
 * (POST /api/users/tokens/provision/) and the browser login/logout forms.
 * Mounted before the JSON body reader: the forms read their own urlencoded bodies.
 */
export function authRoutes(services: Services): Router {
  const auth = services.auth;
  const router = new Router();

  const bodyTimeoutMs = services.config.bodyTimeoutMs;
  router.post(
    PROVISION_PATH,
    readJsonBody({ maxBytes: services.config.maxBodyBytes, timeoutMs: bodyTimeoutMs }),
    (ctx) => provision(services, auth, ctx),
  );
  router.all(PROVISION_PATH, (ctx) => {
    ctx.set('Allow', 'POST, OPTIONS');
    if (ctx.method === 'OPTIONS') {
      ctx.body = {
        name: 'Token Provision',
        description: '',
        renders: ['application/json'],
        parses: ['application/json'],
      };
      return;
    }
    ctx.status = 405;
    ctx.body = { detail: `Method "${ctx.method}" not allowed.` };
  });

  router.get('/login/', (ctx) => showLogin(ctx, 200, []));
  const formLimits: BodyLimits = { maxBytes: MAX_FORM_BYTES, timeoutMs: bodyTimeoutMs };
  router.post('/login/', (ctx) => login(auth, ctx, services.config.csrfTrustedOrigins, formLimits));
  router.get('/logout/', (ctx) => showLogout(ctx));
  router.post('/logout/', (ctx) => logout(auth, ctx, services.config.csrfTrustedOrigins, formLimits));
  return router;
}

/* ---------------------------------------------------------------- throttling */

function clientKey(auth: AuthService, ctx: Context): string {
  return auth.clientAddress(requestOrigin(ctx)) ?? 'unknown';
}

/** Django REST framework's throttled answer. */
function throttled(ctx: Context, waitMs: number): void {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  ctx.status = 429;
  ctx.set('Retry-After', String(seconds));
  ctx.body = { detail: `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.` };
}

/** Check a username and password under the brute-force throttle. */
async function checkPassword(
  auth: AuthService,
  ctx: Context,
  username: string,
  password: string,
): Promise<{ user: Principal } | { waitMs: number } | { failed: true }> {
  const address = clientKey(auth, ctx);
  const now = Date.parse(auth.clock.now());
  const waitMs = auth.throttle.wait(username, address, now);
  if (waitMs > 0) return { waitMs };
  const user = await auth.verifyCredentials(username, password);
  const principal = user ? await auth.principalFor(user.id, 'password') : null;
  if (!principal) {
    auth.throttle.failure(username, address, now);
    return { failed: true };
  }
  auth.throttle.success(username, address);
  return { user: principal };
}

/* ---------------------------------------------------------------- provisioning */

/**
 * POST /api/users/tokens/provision/ {username, password}: no token needed; the user must
 * hold the permission to create tokens (users.add_token; DEFAULT_PERMISSIONS grants it
 * for their own). 201 with the new token, its key shown this once.
 */
async function provision(services: Services, auth: AuthService, ctx: Context): Promise<void> {
  const body = ctx.state.body as Record<string, unknown> | undefined;
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  const username = isObject ? body.username : undefined;
  const password = isObject ? body.password : undefined;
  if (typeof username !== 'string' || username === '' || typeof password !== 'string' || password === '') {
    ctx.status = 403;
    ctx.body = { detail: PROVISION_MESSAGES.missing };
    return;
  }
  const checked = await checkPassword(auth, ctx, username, password);
  if ('waitMs' in checked) return throttled(ctx, checked.waitMs);
  if ('failed' in checked) {
    ctx.status = 403;
    ctx.body = { detail: PROVISION_MESSAGES.invalid };
    return;
  }
  const principal = checked.user;
  const definition = services.registry.get('users.token');
  if (!principal.isSuperuser && !principal.permissions.has(definition.key, 'add')) {
    ctx.status = 403;
    ctx.body = { detail: PROVISION_MESSAGES.noPermission };
    return;
  }
  const context = {
    requestId: ctx.state.requestId as string,
    user: { id: principal.user.id, username: String(principal.user.username) },
    authorize: guardWrites(principal, definition, 'add'),
    webhookDepth: ctx.state.webhookDepth,
  };
  const { result } = await services.coordinator.execute(context, (tx) =>
    createObjects(
      services.commands,
      tx,
      definition,
      [{ user: principal.user.id, write_enabled: true, allowed_ips: null }],
      { bulk: false },
    ),
  );
  const [rendered] = await services.serializer.render(definition, result.documents, 'complete', {
    baseUrl: ctx.state.baseUrl,
    omitAnnotated: true,
    revealed: result.revealed,
  });
  ctx.status = 201;
  ctx.set('Location', services.serializer.url(definition, ctx.state.baseUrl, result.ids[0]));
  ctx.body = rendered;
}

/* ---------------------------------------------------------------- login / logout */

/** The urlencoded form, or null once the request has been answered (body too large, too slow, not UTF-8). */
async function readForm(ctx: Context, limits: BodyLimits): Promise<URLSearchParams | null> {
  if (!ctx.is('application/x-www-form-urlencoded')) return new URLSearchParams();
  const read = await readRequestBody(ctx.req, limits);
  if (read.outcome !== 'complete') {
    refuseBody(ctx, read, limits);
    return null;
  }
  const text = decodeUtf8(read.bytes);
  if (text === null || !percentEncodingIsUtf8(text)) {
    ctx.status = 400;
    ctx.body = { detail: BODY_NOT_UTF8 };
    return null;
  }
  return new URLSearchParams(text);
}

/** Only local paths: no scheme, no host, no protocol-relative or backslash tricks. */
function safeNext(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || /[\\\s\u0000-\u001f]/.test(value)) return '/api/';
  return value;
}

function htmlHeaders(ctx: Context): void {
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  );
}

/** The CSRF token the login form carries: the session's, else a pre-login token kept in the csrftoken cookie. */
function loginCsrfToken(ctx: Context): string {
  const session = ctx.state.session as SessionData | undefined;
  if (session) return session.c;
  let token = ctx.cookies.get(CSRF_COOKIE);
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
    token = SessionCodec.newToken();
    ctx.cookies.set(CSRF_COOKIE, token, cookieOptions(ctx, false));
  }
  return token;
}

function showLogin(ctx: Context, status: number, errors: string[], username = '', next?: string): void {
  const principal = ctx.state.principal ?? null;
  htmlHeaders(ctx);
  ctx.status = status;
  ctx.body = loginPage({
    csrfField: CSRF_FIELD,
    csrfToken: loginCsrfToken(ctx),
    next: safeNext(next ?? ctx.query.next?.toString()),
    username,
    errors,
    loggedInAs: ctx.state.session && principal ? String(principal.user.username) : null,
  });
}

async function login(auth: AuthService, ctx: Context, trusted: string[], limits: BodyLimits): Promise<void> {
  const form = await readForm(ctx, limits);
  if (!form) return;
  const next = safeNext(form.get('next'));
  const username = form.get('username') ?? '';
  const password = form.get('password') ?? '';
  const session = ctx.state.session as SessionData | undefined;
  const expected = session ? session.c : ctx.cookies.get(CSRF_COOKIE);
  const csrf = expected
    ? csrfFailure(ctx, expected, form.get(CSRF_FIELD) ?? undefined, trusted)
    : 'CSRF cookie not set.';
  if (csrf) return showLogin(ctx, 403, [`CSRF verification failed. ${csrf}`], username, next);
  if (!username || !password) return showLogin(ctx, 200, ['Username and password are required.'], username, next);

  const checked = await checkPassword(auth, ctx, username, password);
  if ('waitMs' in checked) {
    ctx.set('Retry-After', String(Math.max(1, Math.ceil(checked.waitMs / 1000))));
    return showLogin(ctx, 429, ['Too many failed attempts. Try again a little later.'], username, next);
  }
  if ('failed' in checked) return showLogin(ctx, 200, [LOGIN_FAILED], username, next);
  const opened = await auth.openSession(checked.user.user.id);
  if (!opened) return showLogin(ctx, 200, [LOGIN_FAILED], username, next);
  if (session) auth.closeSession(session);
  ctx.cookies.set(SESSION_COOKIE, opened.cookie, cookieOptions(ctx, true, opened.maxAgeMs));
  ctx.cookies.set(CSRF_COOKIE, opened.csrf, cookieOptions(ctx, false, opened.maxAgeMs));
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(next);
}

function showLogout(ctx: Context): void {
  const session = ctx.state.session as SessionData | undefined;
  const principal = ctx.state.principal ?? null;
  if (!session || !principal) {
    ctx.redirect('/login/');
    return;
  }
  htmlHeaders(ctx);
  const next = ctx.query.next?.toString();
  ctx.body = logoutPage({
    csrfField: CSRF_FIELD,
    csrfToken: session.c,
    username: String(principal.user.username),
    next: next ? safeNext(next) : '/login/',
  });
}

async function logout(auth: AuthService, ctx: Context, trusted: string[], limits: BodyLimits): Promise<void> {
  const form = await readForm(ctx, limits);
  if (!form) return;
  const session = ctx.state.session as SessionData | undefined;
  if (session) {
    const csrf = csrfFailure(ctx, session.c, form.get(CSRF_FIELD) ?? undefined, trusted);
    if (csrf) {
      ctx.status = 403;
      ctx.body = { detail: `CSRF Failed: ${csrf}` };
      return;
    }
    auth.closeSession(session);
  }
  ctx.cookies.set(SESSION_COOKIE, '', { ...cookieOptions(ctx, true), maxAge: 0 });
  ctx.cookies.set(CSRF_COOKIE, '', { ...cookieOptions(ctx, false), maxAge: 0 });
  const next = form.get('next');
  ctx.redirect(next ? safeNext(next) : '/login/');
}

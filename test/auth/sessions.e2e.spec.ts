import test from 'ava';

import { ok } from '../support/callers.js';
import { FakeClock } from '../support/fakeClock.js';
import { portOf, requestFrom } from '../support/rawRequests.js';
import { startService, type TestService } from '../support/startService.js';

interface Browser {
  cookies: Map<string, string>;
  setCookies: string[];
  fetch(
    method: string,
    path: string,
    options?: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; text: string; body: any }>;
}

/** A minimal cookie-keeping browser (no token), for the login form and session requests. */
function browser(service: TestService): Browser {
  const cookies = new Map<string, string>();
  const state: Browser = {
    cookies,
    setCookies: [],
    async fetch(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (cookies.size) headers.Cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      let body: string | undefined;
      if (options.form) {
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(options.form).toString();
      } else if (options.json !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(options.json);
      }
      const response = await fetch(service.url + path, { method, headers, body, redirect: 'manual' });
      state.setCookies = response.headers.getSetCookie();
      for (const line of state.setCookies) {
        const [pair] = line.split(';');
        const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
        if (value === '' || /max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
        else cookies.set(name, value);
      }
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        // HTML
      }
      return { status: response.status, headers: response.headers, text, body: parsed };
    },
  };
  return state;
}

function csrfFrom(html: string): string {
  const match = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF field in the form');
  return match[1];
}

async function logIn(b: Browser, username = 'admin', password = 'admin-password', next = '/api/dcim/sites/') {
  const form = await b.fetch('GET', `/login/?next=${encodeURIComponent(next)}`);
  return b.fetch('POST', '/login/', { form: { username, password, next, csrfmiddlewaretoken: csrfFrom(form.text) } });
}

test('the login form sets a signed HttpOnly SameSite=Lax session cookie and redirects to next', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const b = browser(service);
  t.is((await b.fetch('GET', '/api/dcim/sites/')).status, 403);
  const form = await b.fetch('GET', '/login/?next=/api/dcim/sites/');
  t.is(form.status, 200);
  t.regex(form.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(form.text, /<form method="post" action="\/login\/">/);
  const response = await logIn(b);
  t.is(response.status, 302);
  t.is(response.headers.get('location'), '/api/dcim/sites/');
  const session = b.setCookies.find((c) => c.startsWith('sessionid='))!;
  t.truthy(session);
  t.regex(session, /; httponly/i);
  t.regex(session, /; samesite=lax/i);
  t.regex(session, /; path=\//i);
  const csrf = b.setCookies.find((c) => c.startsWith('csrftoken='))!;
  t.notRegex(csrf, /httponly/i, 'the page script reads the CSRF token');
  t.is((await b.fetch('GET', '/api/dcim/sites/')).status, 200);

  // a tampered cookie is no session
  const [payload, signature] = b.cookies.get('sessionid')!.split('.');
  const forged = Buffer.from(
    JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), u: 2 }),
  ).toString('base64url');
  b.cookies.set('sessionid', `${forged}.${signature}`);
  t.is((await b.fetch('GET', '/api/dcim/sites/')).status, 403);
});

test('cookie-authenticated writes need the CSRF token; token requests do not', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const b = browser(service);
  await logIn(b);
  const token = b.cookies.get('csrftoken')!;
  const head = service.services.log.head();
  const missing = await b.fetch('POST', '/api/extras/tags/', { json: { name: 'a', slug: 'a' } });
  t.deepEqual([missing.status, missing.body], [403, { detail: 'CSRF Failed: CSRF token missing.' }]);
  const wrong = await b.fetch('POST', '/api/extras/tags/', {
    json: { name: 'a', slug: 'a' },
    headers: { 'X-CSRFToken': 'x'.repeat(43) },
  });
  t.deepEqual(wrong.body, { detail: 'CSRF Failed: CSRF token incorrect.' });
  // fetch() will not send a forged Origin: a raw request does
  const cookie = [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const foreign = await requestFrom(
    { host: '127.0.0.1', port: portOf(service) },
    'POST',
    '/api/extras/tags/',
    {
      Cookie: cookie,
      'X-CSRFToken': token,
      Origin: 'https://evil.example',
      'Content-Type': 'application/json',
    },
    JSON.stringify({ name: 'a', slug: 'a' }),
  );
  t.deepEqual(foreign.body, {
    detail: 'CSRF Failed: Origin checking failed - https://evil.example does not match any trusted origins.',
  });
  t.is(service.services.log.head(), head);
  const good = await b.fetch('POST', '/api/extras/tags/', {
    json: { name: 'a', slug: 'a' },
    headers: { 'X-CSRFToken': token },
  });
  t.is(good.status, 201);
  t.is(
    (await service.api('POST', '/api/extras/tags/', { name: 'b', slug: 'b' })).status,
    201,
    'a token needs no CSRF token',
  );
});

test('login failures, CSRF on the form, escaping and open redirects', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const b = browser(service);
  const form = await b.fetch('GET', '/login/?next=%22%3E%3Cscript%3Ealert(1)%3C/script%3E');
  t.false(form.text.includes('<script>alert(1)</script>'));
  t.regex(form.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  const csrf = csrfFrom(form.text);
  const wrong = await b.fetch('POST', '/login/', {
    form: { username: 'admin', password: 'nope', csrfmiddlewaretoken: csrf },
  });
  t.is(wrong.status, 200);
  t.regex(wrong.text, /Please enter a correct username and password/);
  t.false(b.cookies.has('sessionid'));
  const noCsrf = await b.fetch('POST', '/login/', { form: { username: 'admin', password: 'admin-password' } });
  t.is(noCsrf.status, 403);
  t.false(b.cookies.has('sessionid'));
  const stranger = browser(service); // a cross-site form post has no csrftoken cookie
  const crossSite = await stranger.fetch('POST', '/login/', {
    form: { username: 'admin', password: 'admin-password', csrfmiddlewaretoken: csrf },
  });
  t.is(crossSite.status, 403);
  for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
    const c = browser(service);
    const response = await logIn(c, 'admin', 'admin-password', next);
    t.is(response.headers.get('location'), '/api/', next);
  }
});

test('logout ends the session; a password change ends every session; sessions expire', async (t) => {
  const service = await startService({ LOGIN_TIMEOUT: '3600' });
  t.teardown(() => service.close());
  const clock = new FakeClock();
  service.services.auth.clock = clock;
  await ok(service.api('POST', '/api/users/users/', { username: 'alice', password: 'alice-password-1' }));
  await ok(
    service.api('POST', '/api/users/permissions/', {
      name: 'v',
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [2],
    }),
  );

  const b = browser(service);
  await logIn(b, 'alice', 'alice-password-1');
  const stolen = b.cookies.get('sessionid')!;
  t.is((await b.fetch('GET', '/api/dcim/sites/')).status, 200);
  const logoutForm = await b.fetch('GET', '/logout/');
  const out = await b.fetch('POST', '/logout/', { form: { csrfmiddlewaretoken: csrfFrom(logoutForm.text) } });
  t.is(out.status, 302);
  t.false(b.cookies.has('sessionid'));
  const replay = browser(service);
  replay.cookies.set('sessionid', stolen);
  t.is((await replay.fetch('GET', '/api/dcim/sites/')).status, 403, 'a logged-out cookie no longer works');

  const c = browser(service);
  await logIn(c, 'alice', 'alice-password-1');
  t.is((await c.fetch('GET', '/api/dcim/sites/')).status, 200);
  await ok(service.api('PATCH', '/api/users/users/2/', { password: 'alice-password-2' }), 200);
  t.is((await c.fetch('GET', '/api/dcim/sites/')).status, 403, 'the new password ends old sessions');

  const d = browser(service);
  await logIn(d, 'alice', 'alice-password-2');
  clock.advance(3599_000);
  t.is((await d.fetch('GET', '/api/dcim/sites/')).status, 200);
  clock.advance(2_000);
  t.is((await d.fetch('GET', '/api/dcim/sites/')).status, 403, 'LOGIN_TIMEOUT passed');
});

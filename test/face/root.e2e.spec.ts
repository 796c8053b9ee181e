import test from 'ava';

import { registry } from '../../src/models/registry.js';
import { plainUserToken } from '../support/callers.js';
import { raw } from '../support/rawRequests.js';
import { startService } from '../support/startService.js';

const APPS = ['circuits', 'dcim', 'extras', 'ipam', 'plugins', 'tenancy', 'users', 'virtualization', 'wireless'];

test('GET /api/ lists the applications and status with absolute URLs, in order, open to anyone', async (t) => {
  const service = await startService({ LOGIN_REQUIRED: 'true' });
  t.teardown(() => service.close());
  const response = await raw(service, 'GET', '/api/');
  t.is(response.status, 200);
  const body = JSON.parse(response.text);
  t.deepEqual(Object.keys(body), [...APPS, 'status'].sort());
  for (const app of APPS) t.is(body[app], `${service.url}/api/${app}/`);
  t.is(body.status, `${service.url}/api/status/`);
});

test('each application root lists its endpoints alphabetically, and each listed URL is a list view', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const seen = new Set<string>();
  for (const app of APPS.filter((a) => a !== 'plugins')) {
    const response = await service.api('GET', `/api/${app}/`);
    t.is(response.status, 200, app);
    const keys = Object.keys(response.body);
    t.deepEqual(keys, [...keys].sort(), app);
    for (const [name, url] of Object.entries<string>(response.body)) {
      t.is(url, `${service.url}/api/${app}/${name}/`);
      seen.add(`${app}/${name}`);
      if (`${app}/${name}` === 'dcim/connected-device') continue; // a lookup that needs its two parameters, as in NetBox
      if (`${app}/${name}` === 'users/config') continue; // the caller's preferences: one object, as in NetBox
      const list = await service.api('GET', new URL(url).pathname);
      t.is(list.status, 200, url);
      // reports and scripts are not paginated in NetBox: a plain array
      if (['extras/reports', 'extras/scripts'].includes(`${app}/${name}`)) t.true(Array.isArray(list.body), url);
      else t.true(Array.isArray(list.body.results), url);
    }
  }
  for (const definition of registry.all()) t.true(seen.has(`${definition.app}/${definition.path}`), definition.key);
  t.true(seen.has('extras/object-changes'), 'the change log is listed with the extras endpoints');
  t.true(seen.has('dcim/connected-device'), 'the connected-device lookup is listed with the dcim endpoints');
  t.true(seen.has('users/config'), 'the user preferences are listed with the users endpoints');
  for (const name of ['content-types', 'reports', 'scripts']) t.true(seen.has(`extras/${name}`), name);
});

test('/api/plugins/ names only installed-plugins, which is an empty list for staff', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const root = await raw(service, 'GET', '/api/plugins/');
  t.is(root.status, 200);
  t.deepEqual(JSON.parse(root.text), { 'installed-plugins': `${service.url}/api/plugins/installed-plugins/` });
  const installed = await service.api('GET', '/api/plugins/installed-plugins/');
  t.is(installed.status, 200);
  t.deepEqual(installed.body, []);
  const anonymous = await raw(service, 'GET', '/api/plugins/installed-plugins/');
  t.is(anonymous.status, 403);
  const plain = await plainUserToken(service, 'nonstaff');
  const refused = await service.api('GET', '/api/plugins/installed-plugins/', undefined, {
    Authorization: `Token ${plain}`,
  });
  t.is(refused.status, 403);
});

test('/api/status/ has NetBox keys in NetBox order, then the projector position and lag', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api('POST', '/api/extras/tags/', { name: 'a', slug: 'a' });
  const response = await service.api('GET', '/api/status/');
  t.is(response.status, 200);
  const body = response.body;
  t.deepEqual(Object.keys(body).slice(0, 6), [
    'django-version',
    'installed-apps',
    'netbox-version',
    'plugins',
    'python-version',
    'rq-workers-running',
  ]);
  t.is(body['netbox-version'], '3.4.10');
  t.deepEqual(body.plugins, {});
  t.is(typeof body['installed-apps'].koa, 'string');
  t.true(Number.isInteger(body['rq-workers-running']));
  t.is(body.projector.lag, 0);
  t.is(body.projector.position, service.services.log.head());
  t.true(body['event-log']['size-bytes'] > 0);
  t.regex(body['started-at'], /^\d{4}-\d\d-\d\dT/);
});

test('/api/status/ is open without a token unless LOGIN_REQUIRED', async (t) => {
  const open = await startService();
  const closed = await startService({ LOGIN_REQUIRED: 'true' });
  t.teardown(() => Promise.all([open.close(), closed.close()]));
  t.is((await raw(open, 'GET', '/api/status/')).status, 200);
  t.is((await raw(closed, 'GET', '/api/status/')).status, 403);
});

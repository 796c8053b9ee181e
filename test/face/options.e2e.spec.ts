import test from 'ava';

import { registry } from '../../src/models/registry.js';
import { plainUserToken } from '../support/callers.js';
import { raw } from '../support/rawRequests.js';
import { ADMIN_TOKEN, startService } from '../support/startService.js';

test('OPTIONS on a list: name, renders, parses and the POST/PUT field maps with choices for a superuser', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const response = await service.api('OPTIONS', '/api/dcim/sites/');
  t.is(response.status, 200);
  t.is(response.headers.get('allow'), 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
  const body = response.body;
  t.is(body.name, 'Site');
  t.is(body.description, '');
  t.deepEqual(body.renders, ['application/json', 'text/html']);
  t.deepEqual(body.parses, ['application/json']);
  t.deepEqual(Object.keys(body.actions), ['POST', 'PUT']);
  const post = body.actions.POST;
  t.deepEqual(post.id, { type: 'integer', required: false, read_only: true, label: 'ID' });
  t.deepEqual(post.name, { type: 'string', required: true, read_only: false, label: 'Name', max_length: 100 });
  t.is(post.slug.type, 'slug');
  t.is(post.status.type, 'field');
  t.false(post.status.required);
  t.deepEqual(post.status.choices.slice(0, 2), [
    { value: 'planned', display_name: 'Planned' },
    { value: 'staging', display_name: 'Staging' },
  ]);
  t.is(post.device_count.type, 'integer');
  t.true(post.device_count.read_only);
  t.false('choices' in post.name);
  // serializer order, internal fields never shown
  t.deepEqual(Object.keys(post).slice(0, 5), ['id', 'url', 'display', 'name', 'slug']);
  t.deepEqual(body.actions.PUT, post);
});

test('OPTIONS on a detail view lists PUT only; names are verbose names title-cased', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const detail = await service.api('OPTIONS', '/api/ipam/ip-addresses/1/');
  t.is(detail.status, 200);
  t.is(detail.body.name, 'IP Address');
  t.deepEqual(Object.keys(detail.body.actions), ['PUT']);
  t.is(detail.headers.get('allow'), 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
  const vlanGroup = await service.api('OPTIONS', '/api/ipam/vlan-groups/');
  t.is(vlanGroup.body.name, 'VLAN Group');
  const token = await service.api('OPTIONS', '/api/users/tokens/');
  t.deepEqual(token.body.actions.POST.allowed_ips.child, { type: 'string', required: true, read_only: false });
  t.false('key_digest' in token.body.actions.POST);
});

test('every model of the registry answers OPTIONS on its list and detail URLs', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  for (const definition of registry.all()) {
    const list = `/api/${definition.app}/${definition.path}/`;
    for (const path of [list, `${list}7/`]) {
      const response = await service.api('OPTIONS', path);
      t.is(response.status, 200, path);
      t.is(response.body.name.toLowerCase(), definition.verboseName.toLowerCase(), path);
      if (definition.readOnly) t.false('actions' in response.body, path);
      for (const field of Object.values<any>(response.body.actions?.PUT ?? {})) {
        t.true(typeof field.type === 'string' && typeof field.label === 'string', path);
        for (const choice of field.choices ?? []) t.deepEqual(Object.keys(choice), ['value', 'display_name'], path);
      }
    }
  }
});

test('no actions (so no choices) for callers that may not POST: anonymous, read-only token, user without permission', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const anonymous = await raw(service, 'OPTIONS', '/api/dcim/sites/');
  t.is(anonymous.status, 200);
  const body = JSON.parse(anonymous.text);
  t.is(body.name, 'Site');
  t.false('actions' in body);

  const admin = await service.api('GET', '/api/users/users/?username=admin');
  const readOnly = await service.api('POST', '/api/users/tokens/', {
    user: admin.body.results[0].id,
    write_enabled: false,
  });
  t.is(readOnly.status, 201);
  const withReadOnly = await service.api('OPTIONS', '/api/dcim/sites/', undefined, {
    Authorization: `Token ${readOnly.body.key}`,
  });
  t.is(withReadOnly.status, 200);
  t.false('actions' in withReadOnly.body);

  const plain = await plainUserToken(service, 'viewer');
  const withPlain = await service.api('OPTIONS', '/api/dcim/sites/', undefined, { Authorization: `Token ${plain}` });
  t.is(withPlain.status, 200);
  t.false('actions' in withPlain.body);

  // a bad token is refused before anything else
  const bad = await service.api('OPTIONS', '/api/dcim/sites/', undefined, {
    Authorization: 'Token ffffffffffffffffffffffffffffffffffffffff',
  });
  t.is(bad.status, 403);
  t.is(ADMIN_TOKEN.length, 40);
});

test('with LOGIN_REQUIRED an anonymous OPTIONS is 403; the root views answer OPTIONS too', async (t) => {
  const service = await startService({ LOGIN_REQUIRED: 'true' });
  t.teardown(() => service.close());
  const anonymous = await raw(service, 'OPTIONS', '/api/dcim/sites/');
  t.is(anonymous.status, 403);
  t.deepEqual(JSON.parse(anonymous.text), { detail: 'Authentication credentials were not provided.' });
  const root = await raw(service, 'OPTIONS', '/api/');
  t.is(root.status, 200);
  t.deepEqual(JSON.parse(root.text), {
    name: 'API Root',
    description: '',
    renders: ['application/json', 'text/html'],
    parses: ['application/json'],
  });
  const dcim = await service.api('OPTIONS', '/api/dcim/');
  t.is(dcim.body.name, 'DCIM');
});

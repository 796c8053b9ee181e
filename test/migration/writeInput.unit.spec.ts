import test from 'ava';

import { writeInputOf } from '../../src/migration/writeInput.js';
import { registry } from '../../src/models/registry.js';

const nested = (id: number) => ({ id, url: `https://netbox.example/api/x/${id}/`, display: `x${id}`, name: `x${id}` });

test('a rendered device becomes its write input: relations by id, choices bare, held-back fields and object custom fields for the second pass', (t) => {
  const device = {
    id: 42,
    url: 'https://netbox.example/api/dcim/devices/42/',
    display: 'edge1',
    name: 'edge1',
    device_type: nested(3),
    device_role: nested(4),
    site: nested(1),
    status: { value: 'active', label: 'Active' },
    airflow: null,
    primary_ip4: nested(77),
    primary_ip6: null,
    tags: [{ id: 2, url: 'u', name: 'Production', slug: 'production', color: '4caf50' }],
    custom_fields: { owner: 'noc', backup: nested(43) },
    created: '2021-03-08T11:33:24.812949Z',
    last_updated: '2022-01-01T00:00:00.000000Z',
    interface_count: 4,
  };
  const split = writeInputOf(registry.get('dcim.device'), device, { deferred: ['primary_ip4', 'primary_ip6'] });
  t.like(split.create, { id: 42, created: '2021-03-08T11:33:24.812949Z', lastUpdated: '2022-01-01T00:00:00.000000Z' });
  t.like(split.create.input, {
    name: 'edge1',
    device_type: 3,
    device_role: 4,
    site: 1,
    status: 'active',
    tags: [2],
    custom_fields: { owner: 'noc' },
  });
  t.false('primary_ip4' in split.create.input);
  t.false('interface_count' in split.create.input, 'computed fields are not written');
  t.deepEqual(split.complete?.input, { primary_ip4: 77, custom_fields: { backup: 43 } });
});

test("a user's password is never sent; a token gets the key the operator supplied, else none (a new one)", (t) => {
  const token = { id: 7, user: nested(1), key: '****', write_enabled: true, description: '' };
  t.false('key' in writeInputOf(registry.get('users.token'), token).create.input);
  const keyed = writeInputOf(registry.get('users.token'), token, { tokenKeys: new Map([[7, 'a'.repeat(40)]]) });
  t.is(keyed.create.input.key, 'a'.repeat(40));
  t.false(
    'password' in writeInputOf(registry.get('auth.user'), { id: 1, username: 'admin', password: 'x' }).create.input,
  );
});

import test from 'ava';

import { mergedUserConfig, userConfigOf } from '../../src/commands/userConfig.js';
import { ValidationError } from '../../src/errors/requestErrors.js';

test('a user without saved preferences has {}', (t) => {
  t.deepEqual(userConfigOf({ id: 1, username: 'a' }), {});
  t.deepEqual(userConfigOf({ id: 1, config: null }), {});
  t.deepEqual(userConfigOf({ id: 1, config: { a: 1 } }), { a: 1 });
});

test('preferences merge as NetBox merges: objects key by key, anything else replaces, keys stay', (t) => {
  const current = { pagination: { per_page: 50, placement: 'bottom' }, tables: { site: ['name'] }, ui: 'light' };
  t.deepEqual(mergedUserConfig(current, { pagination: { per_page: 100 } }), {
    pagination: { per_page: 100, placement: 'bottom' },
    tables: { site: ['name'] },
    ui: 'light',
  });
  t.deepEqual(mergedUserConfig(current, { tables: {} }).tables, {}, 'an empty object replaces');
  t.deepEqual(mergedUserConfig(current, { tables: null }).tables, null);
  t.deepEqual(mergedUserConfig(current, { ui: { mode: 'dark' } }).ui, { mode: 'dark' });
  t.deepEqual(mergedUserConfig(current, {}), current);
  t.deepEqual(mergedUserConfig(current, undefined), current, 'no body changes nothing');
  t.deepEqual(current.pagination, { per_page: 50, placement: 'bottom' }, 'the stored value is not changed in place');
});

test('a body that is not a JSON object is refused', (t) => {
  for (const [body, kind] of [
    [[], 'list'],
    ['x', 'str'],
    [1, 'int'],
    [1.5, 'float'],
    [true, 'bool'],
    [null, 'null'],
  ] as const) {
    const error = t.throws(() => mergedUserConfig({}, body), { instanceOf: ValidationError });
    t.deepEqual(error.body, { non_field_errors: [`Invalid data. Expected a dictionary, but got ${kind}.`] });
  }
});

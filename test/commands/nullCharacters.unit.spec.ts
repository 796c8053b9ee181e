import test from 'ava';

import { checkFieldValues, writableFields } from '../../src/commands/writeSchema.js';
import { registry } from '../../src/models/registry.js';

const NUL = 'Null characters are not allowed.';

test('every writable string field of every model refuses a NUL character before anything else it checks', (t) => {
  let checked = 0;
  for (const definition of registry.all()) {
    for (const field of writableFields(definition)) {
      if (field.type !== 'string') continue;
      const errors = checkFieldValues(definition, { [field.name]: 'ab\u0000c' }, 'patch');
      t.deepEqual(errors[field.name], [NUL], `${definition.key}.${field.name}`);
      checked++;
    }
  }
  t.true(checked > 100, `${checked} string fields`);
});

test('a NUL in a list of strings is refused; text without one is not', (t) => {
  const customfield = registry.get('extras.customfield');
  t.deepEqual(checkFieldValues(customfield, { choices: ['a', 'b\u0000'] }, 'patch'), { choices: [NUL] });
  t.deepEqual(checkFieldValues(customfield, { choices: ['a', 'b'] }, 'patch'), {});
  const site = registry.get('dcim.site');
  const fine = { name: 'ok \\u0000 written out', description: '\u0001 other control characters' };
  t.deepEqual(checkFieldValues(site, fine, 'patch'), {});
});

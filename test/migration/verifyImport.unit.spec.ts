import test from 'ava';

import { type ModelComparison, verified } from '../../src/migration/verifyImport.js';

const row = (model: string, counts: Partial<ModelComparison>): ModelComparison => ({
  model,
  equal: 1,
  differing: 0,
  missing: 0,
  extra: 0,
  differences: [],
  ...counts,
});

test('any differing or missing object fails; extra objects only where the operator or the import makes them', (t) => {
  t.true(
    verified([row('dcim.site', {}), row('users.token', { extra: 1 }), row('extras.objectchange', { extra: 900 })]),
  );
  t.false(verified([row('dcim.site', { differing: 1 })]));
  t.false(verified([row('dcim.site', { missing: 1 })]));
  t.false(verified([row('dcim.site', { extra: 1 })]));
});

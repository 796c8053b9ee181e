import test from 'ava';

import { conflictingFields } from '../../src/branches/branchDiff.js';

const original = { name: 'DC-1', description: '', comments: '', last_updated: 't0' };

test('a conflict is a field both sides changed since the fork, to different values', (t) => {
  const cases: Array<[string, Record<string, unknown> | null, Record<string, unknown> | null, string[]]> = [
    ['only the branch changed it', { ...original, description: 'b' }, original, []],
    ['only main changed it', original, { ...original, description: 'm' }, []],
    ['both, differently', { ...original, description: 'b' }, { ...original, description: 'm' }, ['description']],
    ['both, alike', { ...original, description: 'x' }, { ...original, description: 'x' }, []],
    ['different fields', { ...original, description: 'b' }, { ...original, comments: 'm' }, []],
    ['last_updated is bookkeeping', { ...original, last_updated: 't1' }, { ...original, last_updated: 't2' }, []],
    ['the branch deleted what main changed', null, { ...original, comments: 'm' }, ['comments']],
    ['main deleted what the branch changed', { ...original, name: 'DC-2' }, null, ['name']],
    ['deleted on both sides', null, null, []],
  ];
  for (const [what, modified, current, conflicts] of cases)
    t.deepEqual(conflictingFields(original, modified, current), conflicts, what);
  t.deepEqual(conflictingFields(null, { name: 'new' }, null), [], 'created in the branch: no conflict');
});

import test from 'ava';

import { filterEntries, sortEntries } from '../../src/api/extras/contentTypesRoute.js';
import { ValidationError } from '../../src/errors/requestErrors.js';
import { ContentTypes } from '../../src/models/contentTypes.js';
import { allModels } from '../../src/models/index.js';
import { ModelRegistry, registry } from '../../src/models/registry.js';

test("a model's content type id is its place in the registry; the non-model types keep theirs as models are appended", (t) => {
  const types = new ContentTypes(registry);
  registry.all().forEach((definition, i) => t.is(types.id(definition.key), i + 1, definition.key));
  const fewer = new ContentTypes(new ModelRegistry(allModels.slice(0, 10)));
  t.is(
    fewer.id('extras.objectchange'),
    types.id('extras.objectchange'),
    'appending models renumbers no non-model type',
  );
  t.is(types.key(types.id('extras.report')!), 'extras.report');
  t.is(types.display('extras.objectchange'), 'extras | object change');
  t.is(types.display('dcim.devicetype'), 'dcim | device type');
  const all = types.all();
  t.is(new Set(all.map((entry) => entry.id)).size, all.length, 'ids are unique');
});

test('content type filters take one value each, exact; q matches either half; an id must be a number', (t) => {
  const entries = new ContentTypes(registry).all();
  const keys = (query: string) =>
    filterEntries(entries, new URLSearchParams(query))
      .map((entry) => entry.key)
      .sort();
  t.deepEqual(keys('app_label=dcim&model=site'), ['dcim.site']);
  t.deepEqual(keys('model=tenant&model=site'), ['dcim.site'], 'the last value counts');
  t.deepEqual(keys('q=CONTACTROLE'), ['tenancy.contactrole']);
  t.deepEqual(keys('app_label=DCIM'), [], 'exact, case and all');
  const error = t.throws(() => keys('id=one'), { instanceOf: ValidationError });
  t.deepEqual((error as ValidationError).body, { id: ['Enter a number.'] });
});

test('content types order by app label and model unless ?ordering= names id, app_label or model', (t) => {
  const entries = new ContentTypes(registry).all().filter((entry) => entry.app_label === 'tenancy');
  t.deepEqual(
    sortEntries(entries, null)
      .map((entry) => entry.model)
      .slice(0, 2),
    ['contact', 'contactassignment'],
  );
  t.deepEqual(
    sortEntries(entries, '-id').map((entry) => entry.id),
    entries.map((entry) => entry.id).sort((a, b) => b - a),
  );
  t.deepEqual(sortEntries(entries, 'nonsense'), sortEntries(entries, null), 'unknown terms are ignored');
});

import test from 'ava';

import { ListQueryCompiler, type ListQueryRequest } from '../../src/api/query/ListQueryCompiler.js';
import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import type { Query } from '../../src/projections/ReadStore.js';

// The query layer takes plain data: a request's parameters and facts, no web framework.
const sites = registry.get('dcim.site');
const request = (query: string, facts: Partial<ListQueryRequest> = {}): ListQueryRequest => ({
  parameters: new URLSearchParams(query),
  requesterId: null,
  viewScope: async () => ({}),
  ...facts,
});

test('filters and resolvers compile from the parameters alone', async (t) => {
  const store = new MemoryReadStore();
  await store.open();
  const compiler = new ListQueryCompiler(registry);
  const seen: Array<{ values: string[]; model: string; requesterId: number | null }> = [];
  compiler.register('touched_by', async (values, definition, { requesterId }) => {
    seen.push({ values, model: definition.key, requesterId });
    return { id: { $in: [1, 2] } };
  });
  const query = await compiler.compile(sites, request('name=DC-1&touched_by=abc', { requesterId: 7 }), store);
  t.deepEqual(seen, [{ values: ['abc'], model: 'dcim.site', requesterId: 7 }]);
  t.deepEqual(query, { $and: [{ name: 'DC-1' }, { id: { $in: [1, 2] } }] });
});

test('a resolver asks the request what the caller may read, and a refusal reaches the caller', async (t) => {
  const store = new MemoryReadStore();
  await store.open();
  const compiler = new ListQueryCompiler(registry);
  compiler.register('visible_to_me', async (_values, _definition, facts) => facts.viewScope(sites));
  const scope: Query = { tenant: { $in: [3] } };
  t.deepEqual(
    await compiler.compile(sites, request('visible_to_me=1', { viewScope: async () => scope }), store),
    scope,
  );
  const refusal = new Error('no view permission');
  await t.throwsAsync(
    compiler.compile(sites, request('visible_to_me=1', { viewScope: async () => Promise.reject(refusal) }), store),
    { is: refusal },
  );
});

import test from 'ava';

import { compileFilter } from '../../src/api/query/compileFilter.js';
import { filterSetOf } from '../../src/api/query/filterSet.js';
import { compileSort } from '../../src/api/query/sort.js';
import { ValidationError } from '../../src/errors/requestErrors.js';
import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { loadDataset } from '../support/queryDataset.js';

/**
 * Every filter parameter of every model, with every lookup it accepts, given hostile
 * values: the compiler answers a query or NetBox's 400 (a ValidationError), never
 * anything else; user text never becomes a key of the query document; the store
 * evaluates every compiled query.
 */
const HOSTILE = [
  '$where',
  '$ne',
  '{"$gt":""}',
  '__proto__',
  'constructor',
  'null',
  'true',
  '1',
  '-1',
  '0x10',
  '1e400',
  ' 7 ',
  '.*',
  '^$',
  '(a+)+$',
  '\\',
  '%',
  '_',
  '\u0000',
  '\n',
  'é',
  '\u{1f600}',
  '10.0.0.0/8',
  '::/0',
  '2001:db8::1',
  '2024-01-01',
  '2024-13-45T99:99',
  'x'.repeat(1001),
  'y'.repeat(100_000),
];

const OPERATORS = new Set([
  '$and',
  '$or',
  '$nor',
  '$in',
  '$nin',
  '$ne',
  '$eq',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$regex',
  '$options',
  '$not',
  '$exists',
  '$all',
  '$elemMatch',
]);

function keysOf(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  }
}

test('hostile values on every filter of every model: a query or a 400, never user text as a key', async (t) => {
  const store = new MemoryReadStore();
  await loadDataset(store);
  let compiled = 0;
  let refused = 0;
  for (const definition of registry.all()) {
    const fieldKeys = new Set<string>();
    for (const [name, filter] of filterSetOf(registry, definition)) {
      for (const lookup of ['exact', ...filter.lookups]) {
        const param = lookup === 'exact' ? name : `${name}__${lookup}`;
        for (const value of HOSTILE) {
          const params = new URLSearchParams();
          params.append(param, value);
          try {
            const query = await compileFilter(registry, definition, params, store);
            keysOf(query, fieldKeys);
            await store.count(definition.key, query);
            await store.find(definition.key, query, { sort: compileSort(definition, value), limit: 5 });
            compiled++;
          } catch (error) {
            if (!(error instanceof ValidationError))
              throw new Error(`${definition.key} ?${param}=${value.slice(0, 40)}: ${String(error)}`);
            const body = error.body as Record<string, string[]>;
            t.deepEqual(Object.keys(body), [param]);
            if (!body[param]!.every((m) => typeof m === 'string' && m.length < 2000))
              t.fail(`${definition.key} ?${param}: ${JSON.stringify(body).slice(0, 300)}`);
            refused++;
          }
        }
      }
    }
    for (const key of fieldKeys) {
      if (OPERATORS.has(key)) continue;
      t.false(HOSTILE.includes(key), `${definition.key}: user text ${key} became a key`);
      t.regex(key, /^[a-z_][a-z0-9_.]*$/, `${definition.key}: key ${key}`);
    }
  }
  t.log(`${compiled} queries compiled and evaluated, ${refused} refused with 400`);
});

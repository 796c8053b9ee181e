import { Query as MingoQuery } from 'mingo';

import type { ReadDocument } from '../ReadStore.js';
import { compileNative } from './nativeMatch.js';

/**
 * A test of documents held outside a store (the writer's staged changes, a branch's own
 * versions) against a query: the compiled JavaScript predicate where it can tell (compiling
 * mingo's query costs more than testing a few documents with it), mingo otherwise; both
 * follow MongoDB's semantics, as the stores do.
 */
export function documentMatcher(query: Record<string, unknown>): (doc: ReadDocument) => boolean {
  const native = compileNative(query);
  let mingo: MingoQuery | null = null;
  return (doc) => {
    const verdict = native ? native(doc) : 2;
    if (verdict !== 2) return verdict === 1;
    return (mingo ??= new MingoQuery(query)).test(doc);
  };
}

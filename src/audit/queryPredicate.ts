import type { Query } from '../projections/ReadStore.js';

export type Predicate = (doc: Record<string, unknown>) => boolean;

type Scalar = string | number | boolean | null;

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** $gt and friends compare a number with a number and a string with a string only (MongoDB's type brackets). */
function comparison(bound: unknown, holds: (order: number) => boolean): ((value: unknown) => boolean) | null {
  if (typeof bound !== 'number' && typeof bound !== 'string') return null;
  return (value) => {
    if (typeof value !== typeof bound) return false;
    const a = value as number | string;
    return holds(a < bound ? -1 : a > bound ? 1 : 0);
  };
}

/** One field's condition (an operator document or a literal), or null when it uses anything else. */
function fieldCondition(condition: unknown): ((value: unknown) => boolean) | null {
  if (isScalar(condition)) return (value) => value === condition;
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) return null;
  const operators = condition as Record<string, unknown>;
  const tests: Array<(value: unknown) => boolean> = [];
  for (const [operator, operand] of Object.entries(operators)) {
    let test: ((value: unknown) => boolean) | null = null;
    switch (operator) {
      case '$eq':
        if (isScalar(operand)) test = (value) => value === operand;
        break;
      case '$ne':
        if (isScalar(operand)) test = (value) => value !== operand;
        break;
      case '$in':
        if (Array.isArray(operand) && operand.every(isScalar)) {
          const set = new Set<unknown>(operand);
          test = (value) => set.has(value);
        }
        break;
      case '$gt':
        test = comparison(operand, (o) => o > 0);
        break;
      case '$gte':
        test = comparison(operand, (o) => o >= 0);
        break;
      case '$lt':
        test = comparison(operand, (o) => o < 0);
        break;
      case '$lte':
        test = comparison(operand, (o) => o <= 0);
        break;
      case '$regex': {
        const options = operators.$options ?? '';
        if (typeof operand !== 'string' || typeof options !== 'string' || !/^[imsu]*$/.test(options)) break;
        const pattern = new RegExp(operand, options);
        test = (value) => typeof value === 'string' && pattern.test(value);
        break;
      }
      case '$options':
        if ('$regex' in operators) continue;
        break;
    }
    if (!test) return null;
    tests.push(test);
  }
  if (tests.length === 0) return null;
  if (tests.length === 1) return tests[0]!;
  return (value) => tests.every((test) => test(value));
}

/**
 * A query document of the shapes permission constraints compile to (src/auth/constraints.ts:
 * fields with $eq, $ne, $in, $gt, $gte, $lt, $lte, $regex; $and / $or of those) as a plain
 * function over flat documents whose fields are all present, a few times faster than a
 * general query engine for scans of many records. Null for any other shape (use the engine).
 */
export function queryPredicate(query: Query): Predicate | null {
  const clauses: Predicate[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0) return null;
      const parts = value.map((part) =>
        typeof part === 'object' && part !== null ? queryPredicate(part as Query) : null,
      );
      if (parts.some((part) => part === null)) return null;
      const all = parts as Predicate[];
      clauses.push(key === '$and' ? (doc) => all.every((p) => p(doc)) : (doc) => all.some((p) => p(doc)));
    } else if (key.startsWith('$')) {
      return null;
    } else {
      const test = fieldCondition(value);
      if (!test) return null;
      clauses.push((doc) => test(doc[key]));
    }
  }
  if (clauses.length === 1) return clauses[0]!;
  return (doc) => clauses.every((clause) => clause(doc));
}

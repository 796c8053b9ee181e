/**
 * A webhook's `conditions`: a rule set `{"and"|"or": [rule, ...]}` whose rules are
 * conditions `{attr, value, op = "eq", negate = false}` or nested rule sets, evaluated on
 * the changed object's API form. The messages and the operators each value type allows
 * are NetBox's, so a rule set NetBox refuses is refused here with the same reason. A
 * `regex` pattern must also be one that matches in linear time (see storedPattern.ts).
 */

import { matchesAtStart, storedPatternProblem } from '../values/storedPattern.js';

const OPERATORS = ['eq', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'regex'] as const;
type Operator = (typeof OPERATORS)[number];

type ValueKind = 'str' | 'bool' | 'int' | 'float' | 'list' | 'NoneType';

const OPERATORS_BY_KIND: Record<ValueKind, readonly Operator[]> = {
  str: ['eq', 'contains', 'regex'],
  bool: ['eq', 'contains'],
  int: ['eq', 'gt', 'gte', 'lt', 'lte', 'contains'],
  float: ['eq', 'gt', 'gte', 'lt', 'lte', 'contains'],
  list: ['eq', 'in', 'contains'],
  NoneType: ['eq'],
};

export interface Condition {
  attr: string;
  value: unknown;
  op: Operator;
  negate: boolean;
}

export interface RuleSet {
  logic: 'and' | 'or';
  rules: Array<Condition | RuleSet>;
}

export class InvalidConditions extends Error {}

/** Python's name of a JSON value's type, as NetBox's messages print it. */
function pythonType(value: unknown): string {
  return `<class '${kindOf(value) ?? (typeof value === 'object' ? 'dict' : typeof value)}'>`;
}

function kindOf(value: unknown): ValueKind | null {
  if (value === null) return 'NoneType';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (Array.isArray(value)) return 'list';
  return null;
}

function isRuleSet(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === 'and' || keys[0] === 'or');
}

/**
 * Beyond NetBox, which has no bound of its own: rule sets nested deeper are refused, so that
 * checking or evaluating one can never exhaust the stack. A request body is already refused
 * past 32 levels (readJsonBody.ts); this holds for rule sets that come another way (an import).
 */
export const MAX_RULESET_DEPTH = 64;
/**
 * Beyond NetBox: the longest `regex` pattern, as a custom field's `validation_regex`. The
 * pattern is compiled when the webhook is written, on the event loop; RE2's compile time
 * grows with the program a pattern expands to (a 15,000-character one took seconds).
 */
export const MAX_PATTERN_LENGTH = 500;

/** Parses a rule set; throws InvalidConditions with NetBox's reason when it is malformed. */
export function parseRuleSet(input: unknown, depth = 1): RuleSet {
  if (depth > MAX_RULESET_DEPTH)
    throw new InvalidConditions(`Rule sets may be nested at most ${MAX_RULESET_DEPTH} levels deep.`);
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new InvalidConditions(
      `Ruleset must be a dictionary, not ${Array.isArray(input) ? "<class 'list'>" : pythonType(input)}.`,
    );
  }
  const keys = Object.keys(input);
  if (keys.length !== 1)
    throw new InvalidConditions(`Ruleset must have exactly one logical operator (found ${keys.length})`);
  const logic = keys[0].toLowerCase();
  if (logic !== 'and' && logic !== 'or')
    throw new InvalidConditions(`Invalid logic type: ${keys[0]} (must be 'and' or 'or')`);
  const rules = (input as Record<string, unknown>)[keys[0]];
  if (!Array.isArray(rules)) throw new InvalidConditions(`Ruleset must list its rules, not ${pythonType(rules)}.`);
  return {
    logic,
    rules: rules.map((rule) => (isRuleSet(rule) ? parseRuleSet(rule, depth + 1) : parseCondition(rule))),
  };
}

function parseCondition(input: unknown): Condition {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new InvalidConditions(
      `A condition must be a dictionary, not ${Array.isArray(input) ? "<class 'list'>" : pythonType(input)}.`,
    );
  }
  const rule = input as Record<string, unknown>;
  for (const key of Object.keys(rule)) {
    if (!['attr', 'value', 'op', 'negate'].includes(key))
      throw new InvalidConditions(`Unexpected condition key: ${key}`);
  }
  if (!('attr' in rule) || !('value' in rule)) throw new InvalidConditions("A condition needs an 'attr' and a 'value'");
  if (typeof rule.attr !== 'string') throw new InvalidConditions("A condition's attr must be a string.");
  const op = (rule.op ?? 'eq') as Operator;
  if (!OPERATORS.includes(op))
    throw new InvalidConditions(`Unknown operator: ${String(rule.op)}. Must be one of: ${OPERATORS.join(', ')}`);
  const kind = kindOf(rule.value);
  if (!kind) throw new InvalidConditions(`Unsupported value type: ${pythonType(rule.value)}`);
  if (!OPERATORS_BY_KIND[kind].includes(op))
    throw new InvalidConditions(`Invalid type for ${op} operation: ${pythonType(rule.value)}`);
  if (op === 'regex' && (rule.value as string).length > MAX_PATTERN_LENGTH)
    throw new InvalidConditions(`A regex pattern may be at most ${MAX_PATTERN_LENGTH} characters long.`);
  const patternProblem = op === 'regex' ? storedPatternProblem(rule.value as string) : null;
  if (patternProblem) throw new InvalidConditions(patternProblem);
  return { attr: rule.attr, value: rule.value, op, negate: rule.negate === true };
}

/** Whether `data` (the object's API form) meets the rule set. */
export function evaluateRuleSet(ruleSet: RuleSet, data: unknown): boolean {
  const results = ruleSet.rules.map((rule) =>
    'logic' in rule ? evaluateRuleSet(rule, data) : evaluateCondition(rule, data),
  );
  return ruleSet.logic === 'or' ? results.some(Boolean) : results.every(Boolean);
}

/** Whether the conditions as stored (null or {} for none) let `data` through. */
export function conditionsMet(conditions: unknown, data: unknown): boolean {
  if (conditions === null || conditions === undefined) return true;
  if (typeof conditions === 'object' && !Array.isArray(conditions) && Object.keys(conditions).length === 0) return true;
  return evaluateRuleSet(parseRuleSet(conditions), data);
}

/**
 * A dotted path into dictionaries; anything that is not one on the way gives null. Only a
 * dictionary's own keys are read (Python's `dict.get`): `constructor` or `__proto__` name
 * nothing in the data, as in NetBox.
 */
function valueAt(data: unknown, path: string): unknown {
  let current: unknown = data;
  for (const key of path.split('.')) {
    if (current === null || current === undefined) return null;
    if (typeof current !== 'object' || Array.isArray(current)) return null;
    if (!Object.hasOwn(current, key)) return null;
    current = (current as Record<string, unknown>)[key];
  }
  return current === undefined ? null : current;
}

function evaluateCondition(condition: Condition, data: unknown): boolean {
  const actual = valueAt(data, condition.attr);
  let result: boolean;
  try {
    result = compare(condition.op, actual, condition.value);
  } catch {
    result = false; // Python raises on e.g. None > 1; the webhook then does not fire
  }
  return condition.negate ? !result : result;
}

function compare(op: Operator, actual: unknown, expected: unknown): boolean {
  switch (op) {
    case 'eq':
      return equal(actual, expected);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      if (typeof actual !== 'number' && typeof actual !== 'boolean') throw new TypeError('not comparable');
      const a = Number(actual);
      const b = Number(expected);
      return op === 'gt' ? a > b : op === 'gte' ? a >= b : op === 'lt' ? a < b : a <= b;
    }
    case 'in':
      return (expected as unknown[]).some((item) => equal(actual, item));
    case 'contains':
      if (typeof actual === 'string' && typeof expected === 'string') return actual.includes(expected);
      if (Array.isArray(actual)) return actual.some((item) => equal(item, expected));
      if (actual !== null && typeof actual === 'object' && typeof expected === 'string')
        return Object.hasOwn(actual, expected);
      throw new TypeError('not a container');
    case 'regex':
      if (typeof actual !== 'string') throw new TypeError('not a string');
      return matchesAtStart(String(expected), actual);
  }
}

function equal(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'boolean') return a === Number(b);
  if (typeof a === 'boolean' && typeof b === 'number') return Number(a) === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

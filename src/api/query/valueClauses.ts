/** Filters of a model's own values: parsed to the field's kind, compared as exact, negated, range or text lookups. */
import { IGNORE, invalidChoice, type Parsed, parseEmptyFlag, parseValue } from '../../models/values/filterValues.js';
import { canonicalMac, canonicalWwn } from '../../models/values/hardwareAddress.js';
import type { Query } from '../../projections/ReadStore.js';
import { type FilterContext, report, tooLong } from './filterContext.js';
import { type ValueFilter, type ValueKind } from './filterSet.js';
import { emptyClause, MAX_TEXT_LOOKUP, textClause } from './textMatch.js';

function parseOne(
  ctx: FilterContext,
  param: string,
  filter: Pick<ValueFilter, 'value' | 'choices'>,
  raw: string,
): Parsed<string | number | boolean> {
  switch (filter.value) {
    case 'choice': {
      const match = filter.choices?.find((c) => String(c) === raw);
      return match === undefined ? { ok: false, message: invalidChoice(raw) } : { ok: true, value: match };
    }
    case 'mac':
      return { ok: true, value: canonicalMac(raw) ?? raw };
    case 'wwn':
      return { ok: true, value: canonicalWwn(raw) ?? raw };
    default:
      return parseValue(filter.value, raw);
  }
}

/** The values parsed for the filter's type; errors are reported under `param`. */
export function parseAll(
  ctx: FilterContext,
  param: string,
  filter: Pick<ValueFilter, 'value' | 'choices'>,
  raws: string[],
): Array<string | number | boolean> {
  const out: Array<string | number | boolean> = [];
  for (const raw of raws) {
    const parsed = parseOne(ctx, param, filter, raw);
    if (parsed === IGNORE) continue;
    if (!parsed.ok) report(ctx, param, parsed.message);
    else out.push(parsed.value);
  }
  return out;
}

const TEXTUAL: ReadonlySet<ValueKind> = new Set(['string', 'mac', 'wwn']);

export function valueClause(
  ctx: FilterContext,
  param: string,
  filter: ValueFilter,
  lookup: string,
  raws: string[],
): Query | null {
  const values = filter.single ? [raws[raws.length - 1]!] : raws;
  const key = filter.key;
  if (lookup === 'empty') {
    const flag = parseEmptyFlag(values[values.length - 1]!);
    return flag === IGNORE || !flag.ok ? null : emptyClause(key, flag.value);
  }
  let effective = lookup === 'exact' && filter.compare ? filter.compare : lookup;
  if (filter.caseInsensitive && (lookup === 'exact' || lookup === 'n')) effective = lookup === 'exact' ? 'ie' : 'nie';
  if (TEXTUAL.has(filter.value) && effective !== 'exact' && effective !== 'n') {
    const long = values.find((v) => v.length > MAX_TEXT_LOOKUP);
    if (long !== undefined) {
      report(ctx, param, tooLong(long));
      return null;
    }
    return textClause(key, effective, values);
  }
  // django-filter's null choice (NetBox sets its label, so its choice filters offer it): 'null'
  // selects objects without a value. NetBox withholds it from the filters it declares with
  // null_value=None (a 400 there); netledger takes it everywhere, never refusing what NetBox answers.
  const nullChoice = filter.value === 'choice' && values.includes('null');
  const parsed = parseAll(ctx, param, filter, nullChoice ? values.filter((v) => v !== 'null') : values);
  const compared: Array<string | number | boolean | null> = nullChoice ? [...parsed, null] : parsed;
  if (compared.length === 0) return null;
  switch (effective) {
    case 'exact':
      return compared.length === 1 ? { [key]: compared[0] } : { [key]: { $in: compared } };
    case 'n':
      return { [key]: { $nin: compared } };
    case 'lt':
    case 'lte':
      return { [key]: { [`$${effective}`]: extreme(parsed, 1) } };
    case 'gt':
    case 'gte':
      return { [key]: { [`$${effective}`]: extreme(parsed, -1) } };
    default:
      return null;
  }
}

/** The largest (dir 1) or smallest (dir -1) value: "less than any of" is "less than the largest". */
function extreme(values: Array<string | number | boolean>, dir: 1 | -1): string | number | boolean {
  return values.reduce((a, b) => ((dir === 1 ? b > a : b < a) ? b : a));
}

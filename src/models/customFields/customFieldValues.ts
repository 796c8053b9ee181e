import type { StoredObject } from '../storedObject.js';
import type { PatternCheck, PatternChecker, PatternVerdict } from '../values/patternChecks.js';

/**
 * Per-type rules for a custom field's value (NetBox's CustomField.validate). Returns
 * what is wrong with the value, or null when it is acceptable. Empty values (null,
 * '') are the caller's business (required or not). Object references are resolved
 * elsewhere, against the registry. The match against `validation_regex`, which NetBox
 * makes last, is not made here: see regexCheckOf (it may have to run off the event loop).
 */
export function checkCustomFieldValue(field: StoredObject, value: unknown): string | null {
  const min = field.validation_minimum as number | null;
  const max = field.validation_maximum as number | null;
  const choices = (field.choices as string[] | null) ?? [];
  // As for every string field (see writeSchema.ts): whatever the type, text with a NUL is no value.
  if (typeof value === 'string' && value.includes('\u0000')) return 'Null characters are not allowed.';
  switch (field.type) {
    case 'text':
    case 'longtext': {
      if (typeof value !== 'string') return 'Value must be a string.';
      return null;
    }
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'Value must be an integer.';
      return range(value, min, max);
    case 'decimal': {
      const n =
        typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) return 'Value must be a decimal.';
      return range(n, min, max);
    }
    case 'boolean':
      return value === true || value === false || value === 0 || value === 1 ? null : 'Value must be true or false.';
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))
        ? null
        : 'Date values must be in the format YYYY-MM-DD.';
    case 'select':
      return typeof value === 'string' && choices.includes(value)
        ? null
        : `Invalid choice (${String(value)}). Available choices are: ${choices.join(', ')}`;
    case 'multiselect':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && choices.includes(v))
        ? null
        : `Invalid choice(s) (${Array.isArray(value) ? value.join(', ') : String(value)}). Available choices are: ${choices.join(', ')}`;
    default:
      return null; // url and json values are not validated (as in NetBox)
  }
}

function range(n: number, min: number | null, max: number | null): string | null {
  if (min !== null && min !== undefined && n < min) return `Value must be at least ${min}`;
  if (max !== null && max !== undefined && n > max) return `Value must not exceed ${max}`;
  return null;
}

/** The match a value acceptable by checkCustomFieldValue still needs: its field's validation_regex, if any. */
export function regexCheckOf(field: StoredObject, value: unknown): PatternCheck | null {
  const pattern = field.validation_regex;
  if (!pattern || typeof pattern !== 'string' || typeof value !== 'string') return null;
  if (field.type !== 'text' && field.type !== 'longtext') return null;
  return { pattern, value };
}

/**
 * What is wrong with a value given its regex check's verdict (null when nothing is). A check
 * stopped at a limit names it and the settings that set it: the value may well match.
 */
export function regexProblem(field: StoredObject, verdict: PatternVerdict): string | null {
  if (verdict === true || verdict === null) return null;
  const pattern = String(field.validation_regex);
  if (verdict === false) return `Value must match regex '${pattern}'`;
  return (
    `The value could not be checked against regex '${pattern}': the check ${verdict.limit} ` +
    '(the limit is set by the service: see TEMPLATE_TIMEOUT and TEMPLATE_MEMORY_MB)'
  );
}

/** checkCustomFieldValue and then the regex check, for one value (a field's default). */
export async function customFieldValueProblem(
  field: StoredObject,
  value: unknown,
  patterns: PatternChecker,
): Promise<string | null> {
  const problem = checkCustomFieldValue(field, value);
  const check = problem ? null : regexCheckOf(field, value);
  if (!check) return problem;
  const [verdict] = await patterns.matchAll([check]);
  return regexProblem(field, verdict ?? null);
}

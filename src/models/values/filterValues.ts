/**
 * Parsing of filter values as django-filter's form fields parse them, with Django's
 * messages. A parser returns the value, or an error message for a 400
 * `{<param>: [message]}`, or IGNORE for values NetBox silently drops (booleans it does
 * not understand disable the filter).
 */
import type { FilterValueType } from '../filterTypes.js';

export const IGNORE = Symbol('ignore');

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string } | typeof IGNORE;

const INTEGER = /^\s*[-+]?\d+\s*$/;
const DECIMAL = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

export function parseInteger(raw: string): Parsed<number> {
  if (!INTEGER.test(raw)) return { ok: false, message: 'Enter a whole number.' };
  return { ok: true, value: Number(raw.trim()) };
}

export function parseDecimal(raw: string): Parsed<number> {
  if (!DECIMAL.test(raw)) return { ok: false, message: 'Enter a number.' };
  const n = Number(raw.trim());
  return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, message: 'Enter a number.' };
}

/** django-filter's BooleanFilter (true/True/false/False), plus 1/0; anything else drops the filter. */
export function parseBoolean(raw: string): Parsed<boolean> {
  const v = raw.trim();
  if (v === 'true' || v === 'True' || v === '1') return { ok: true, value: true };
  if (v === 'false' || v === 'False' || v === '0') return { ok: true, value: false };
  return IGNORE;
}

/** The `empty` lookup's value, which PostgreSQL reads as a boolean literal. */
export function parseEmptyFlag(raw: string): Parsed<boolean> {
  const v = raw.trim().toLowerCase();
  if (['true', 't', 'yes', 'y', 'on', '1'].includes(v)) return { ok: true, value: true };
  if (['false', 'f', 'no', 'n', 'off', '0'].includes(v)) return { ok: true, value: false };
  return IGNORE;
}

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || y < 1) return false;
  const days = new Date(Date.UTC(2000, m, 0)).getUTCDate(); // month length in a leap year
  if (d > days) return false;
  if (m === 2 && d === 29) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return true;
}

/** 'YYYY-MM-DD' (Django's DATE_INPUT_FORMATS first entry); the stored form of date fields. */
export function parseDate(raw: string): Parsed<string> {
  const m = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$/.exec(raw);
  if (!m || !validDate(Number(m[1]), Number(m[2]), Number(m[3]))) return { ok: false, message: 'Enter a valid date.' };
  return { ok: true, value: `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}` };
}

const DATETIME =
  /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?\s*$/i;

/**
 * An ISO 8601 date/time (a date alone is midnight; no offset means UTC, the server's
 * TIME_ZONE) in the stored form: 'YYYY-MM-DDTHH:MM:SS.ffffffZ', which orders as text.
 */
export function parseDateTime(raw: string): Parsed<string> {
  const m = DATETIME.exec(raw);
  const invalid = { ok: false as const, message: 'Enter a valid date/time.' };
  if (!m) return invalid;
  const [y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m.slice(1) as string[];
  if (!validDate(Number(y), Number(mo), Number(d)) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59)
    return invalid;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
    if (Number(digits.slice(0, 2)) > 23 || Number(digits.slice(2, 4)) > 59) return invalid;
    ms -= sign * offset * 60_000;
  }
  const date = new Date(ms);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999 || date.getUTCFullYear() < 1) return invalid;
  const micros = (frac + '000000').slice(0, 6);
  return { ok: true, value: `${date.toISOString().slice(0, 19)}.${micros}Z` };
}

const UUID = /^\s*\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?\s*$/i;

export function parseUuid(raw: string): Parsed<string> {
  const m = UUID.exec(raw);
  if (!m) return { ok: false, message: 'Enter a valid UUID.' };
  return { ok: true, value: m.slice(1, 6).join('-').toLowerCase() };
}

export function parseValue(type: FilterValueType, raw: string): Parsed<string | number | boolean> {
  switch (type) {
    case 'integer':
      return parseInteger(raw);
    case 'decimal':
      return parseDecimal(raw);
    case 'boolean':
      return parseBoolean(raw);
    case 'date':
      return parseDate(raw);
    case 'datetime':
      return parseDateTime(raw);
    case 'uuid':
      return parseUuid(raw);
    default:
      return { ok: true, value: raw };
  }
}

/** A value as echoed in a message: cut at 100 characters so a huge input never comes back whole. */
export function shown(value: string): string {
  return value.length > 100 ? `${value.slice(0, 100)}…` : value;
}

/** Django's ChoiceField message. */
/** ModelChoiceField's message (a single-value relation filter) for any value it cannot take. */
export const UNKNOWN_CHOICE = 'Select a valid choice. That choice is not one of the available choices.';

export function invalidChoice(value: string): string {
  return `Select a valid choice. ${shown(value)} is not one of the available choices.`;
}

/** ModelMultipleChoiceField's message for a primary key that is not an integer (curly quotes). */
export function invalidPk(value: string): string {
  return `“${shown(value)}” is not a valid value.`;
}

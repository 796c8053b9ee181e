/**
 * Times as integer microseconds since the epoch (exact in a double until the year
 * 2255), so events written with microseconds compare exactly.
 */

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parses an ISO 8601 date or date-time, as Django's forms accept it for a datetime
 * filter: `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS[.ffffff]]` or with `T`, optionally with
 * `Z` or an offset; without a zone it is UTC (TIME_ZONE = 'UTC'). Null when invalid.
 */
export function parseTimeMicros(text: string): number | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const probe = new Date(ms);
  if (probe.getUTCDate() !== day || probe.getUTCMonth() !== month - 1) return null; // e.g. 2023-02-30
  let offsetMinutes = 0;
  if (zone && zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const micros = Number((frac + '000000').slice(0, 6));
  return (ms - offsetMinutes * 60_000) * 1000 + micros;
}

/** An event's `time` in microseconds (events are always valid ISO date-times). */
export function eventTimeMicros(time: string): number {
  const parsed = parseTimeMicros(time);
  if (parsed !== null) return parsed;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : ms * 1000;
}

/** ISO 8601 UTC with microseconds, as events carry it. */
export function formatMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const rest = micros - ms * 1000;
  return new Date(ms).toISOString().replace(/Z$/, `${String(rest).padStart(3, '0')}Z`);
}

/** A time as formatMicros writes it (four-digit year, six fraction digits, Z). */
const WRITTEN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * The microseconds of a time written as formatMicros writes it, so that formatMicros gives
 * the same text back; NaN for anything else (another form, not a string, not a valid date).
 */
export function writtenTimeMicros(text: unknown): number {
  if (typeof text !== 'string' || !WRITTEN.test(text)) return NaN;
  return parseTimeMicros(text) ?? NaN;
}

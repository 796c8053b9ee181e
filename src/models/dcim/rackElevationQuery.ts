/**
 * The query parameters of a rack's elevation, read as NetBox's elevation serializer reads
 * them: the last value of a repeated parameter counts, an empty value means the default,
 * and every bad value is reported at once, in the parameters' order.
 */
import type { FieldErrors } from '../../errors/fieldErrors.js';

export type RackFace = 'front' | 'rear';

export interface ElevationQuery {
  /** Keep only the units whose number or name contains this text. */
  q: string | null;
  face: RackFace;
  render: 'json' | 'svg';
  unit_width: number;
  unit_height: number;
  legend_width: number;
  /** Accepted, as NetBox accepts it; NetBox's API does not pass it to the drawing. */
  margin_width: number;
  /** A device left out (as when it is about to move). */
  exclude: number | null;
  /** Repeat a device on every unit it fills (else only on its lowest unit). */
  expand_devices: boolean;
  include_images: boolean;
  /** `attribute:value` pairs: devices to highlight in the drawing. */
  highlight: Array<[string, string]>;
}

const FACES = ['front', 'rear'];
const RENDERS = ['json', 'svg'];
// The spellings NetBox's boolean parameters accept.
const TRUE_VALUES = new Set(['t', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', '1']);
const FALSE_VALUES = new Set([
  'f',
  'F',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'false',
  'False',
  'FALSE',
  'off',
  'Off',
  'OFF',
  '0',
]);

/** NetBox's stock RACK_ELEVATION_DEFAULT_UNIT_WIDTH / _UNIT_HEIGHT and its legend and margin widths. */
export const ELEVATION_DEFAULTS = { unit_width: 220, unit_height: 22, legend_width: 30, margin_width: 15 } as const;

type Parsed<T> = { value: T } | { error: string };

function choice<T extends string>(choices: string[]) {
  return (raw: string): Parsed<T> =>
    choices.includes(raw) ? { value: raw as T } : { error: `"${raw}" is not a valid choice.` };
}

function integer(raw: string): Parsed<number> {
  if (raw.length > 1000) return { error: 'String value too large.' };
  // A trailing ".0" is accepted, as by Python's int() after the serializer strips it.
  const text = raw.trim().replace(/\.0*\s*$/, '');
  const value = Number(text);
  return /^[+-]?\d+$/.test(text) && Number.isSafeInteger(value) ? { value } : { error: 'A valid integer is required.' };
}

function boolean(raw: string): Parsed<boolean> {
  if (TRUE_VALUES.has(raw)) return { value: true };
  if (FALSE_VALUES.has(raw)) return { value: false };
  return { error: 'Must be a valid boolean.' };
}

function text(raw: string): Parsed<string> {
  const trimmed = raw.trim();
  return trimmed === '' ? { error: 'This field may not be blank.' } : { value: trimmed };
}

/** The parameters, or the errors keyed by parameter. */
export function parseElevationQuery(query: URLSearchParams): { query: ElevationQuery } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  function read<T>(name: string, parse: (raw: string) => Parsed<T>, fallback: T): T {
    const raw = query.getAll(name).at(-1);
    if (raw === undefined || raw === '') return fallback;
    const parsed = parse(raw);
    if ('error' in parsed) {
      errors[name] = [parsed.error];
      return fallback;
    }
    return parsed.value;
  }
  const parsed: ElevationQuery = {
    q: read<string | null>('q', text, null),
    face: read('face', choice<RackFace>(FACES), 'front'),
    render: read('render', choice<'json' | 'svg'>(RENDERS), 'json'),
    unit_width: read('unit_width', integer, ELEVATION_DEFAULTS.unit_width),
    unit_height: read('unit_height', integer, ELEVATION_DEFAULTS.unit_height),
    legend_width: read('legend_width', integer, ELEVATION_DEFAULTS.legend_width),
    margin_width: read('margin_width', integer, ELEVATION_DEFAULTS.margin_width),
    exclude: read<number | null>('exclude', integer, null),
    expand_devices: read('expand_devices', boolean, true),
    include_images: read('include_images', boolean, true),
    // NetBox fails on a value without ':'; here it is left out.
    highlight: query
      .getAll('highlight')
      .filter((h) => h.includes(':'))
      .map((h) => [h.slice(0, h.indexOf(':')), h.slice(h.indexOf(':') + 1)] as [string, string]),
  };
  return Object.keys(errors).length > 0 ? { errors } : { query: parsed };
}

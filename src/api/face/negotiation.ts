/**
 * Content negotiation as Django REST framework does it for NetBox (rest_framework/negotiation.py):
 * `?format=json|api` forces a renderer; otherwise the Accept header is matched most
 * specific media type first (q-values are not honoured), JSON before HTML. No Accept
 * or `*\/*` is JSON. `indent=N` and `version=` are Accept parameters.
 */

export type Renderer = 'json' | 'html';

export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
}

export type Negotiation = { renderer: Renderer; indent: number | null } | { error: 404 | 406; detail: string };

/** The versions the API accepts in `Accept: application/json; version=...`. */
const ALLOWED_VERSIONS = new Set(['3.4']);

/** Parse an Accept header into media ranges; malformed parts are skipped. */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [media, ...rawParams] = part.split(';');
    const [type, subtype] = media.trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    const params: Record<string, string> = {};
    for (const raw of rawParams) {
      const eq = raw.indexOf('=');
      if (eq <= 0) continue;
      params[raw.slice(0, eq).trim().toLowerCase()] = raw
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
    }
    ranges.push({ type, subtype, params });
  }
  return ranges;
}

/** DRF's precedence: full type with parameters, full type, type/*, then *\/*. */
function specificity(range: MediaRange): number {
  if (range.type === '*') return 0;
  if (range.subtype === '*') return 1;
  const params = Object.keys(range.params).filter((k) => k !== 'q');
  return params.length > 0 ? 3 : 2;
}

function matches(range: MediaRange, type: string, subtype: string): boolean {
  return (range.type === '*' || range.type === type) && (range.subtype === '*' || range.subtype === subtype);
}

/** JSON's indent parameter, clamped to 0-8 as DRF does; 0 or absent means compact. */
function indentOf(range: MediaRange | undefined): number | null {
  const raw = range?.params.indent;
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  const n = Math.min(8, Number(raw));
  return n === 0 ? null : n;
}

export function negotiate(format: string | null, accept: string | undefined): Negotiation {
  const ranges = parseAccept(accept ?? '');
  for (const range of ranges) {
    const version = range.params.version;
    if (version !== undefined && !ALLOWED_VERSIONS.has(version)) {
      return { error: 406, detail: 'Invalid version in "Accept" header.' };
    }
  }
  const jsonRange = ranges
    .filter((r) => matches(r, 'application', 'json'))
    .sort((a, b) => specificity(b) - specificity(a))[0];
  if (format !== null && format !== '') {
    if (format === 'json') return { renderer: 'json', indent: indentOf(jsonRange) };
    if (format === 'api') return { renderer: 'html', indent: null };
    return { error: 404, detail: 'Not found.' };
  }
  if (ranges.length === 0) return { renderer: 'json', indent: null };
  const ordered = [...ranges].sort((a, b) => specificity(b) - specificity(a));
  for (const range of ordered) {
    if (matches(range, 'application', 'json')) return { renderer: 'json', indent: indentOf(range) };
    if (matches(range, 'text', 'html')) return { renderer: 'html', indent: null };
  }
  return { error: 406, detail: 'Could not satisfy the request Accept header.' };
}

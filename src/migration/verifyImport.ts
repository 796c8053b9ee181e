/**
 * `import-netbox --verify`: every object of every endpoint read from the source and
 * from the netledger and compared in their complete JSON form. The only differences
 * allowed are the URLs' host and the fields listed in IGNORED (documented in README,
 * "Moving from NetBox").
 */
import type { ModelRegistry } from '../models/registry.js';
import { withFileDigests } from './fileDigests.js';
import type { MediaReader } from './mediaReaders.js';
import { eventTime } from './pastChanges.js';
import type { SourceApi } from './SourceApi.js';

/**
 * Fields that cannot be equal after a migration, by model: secrets the API never shows,
 * and their use. Fields naming a file (image fields, image attachments' `image`) are
 * compared by the digest of the bytes each side serves, not by URL.
 */
export const IGNORED: Record<string, string[]> = {
  'users.token': ['key', 'display', 'last_used', 'last_updated'],
  'auth.user': ['last_login'],
};

export interface ModelComparison {
  model: string;
  equal: number;
  differing: number;
  /** In the source, not in the netledger. */
  missing: number;
  /** In the netledger only (a token made for the operator after the import). */
  extra: number;
  /** The first few differences, `id field: source ≠ netledger`. */
  differences: string[];
}

const SHOWN_DIFFERENCES = 3;

export async function verifyImport(
  source: SourceApi,
  target: SourceApi,
  registry: ModelRegistry,
  /** Where each side's media files are read (the source's: its URLs with its token, or --media-dir). */
  media: { source: MediaReader; target: MediaReader },
): Promise<ModelComparison[]> {
  const results: ModelComparison[] = [];
  for (const model of registry.all()) {
    const path = `${model.app}/${model.path}`;
    const [listed, ourList] = await Promise.all([source.list(path), target.list(path)]);
    if (listed === null) continue;
    const [theirs, ours] = await Promise.all([
      withFileDigests(model, listed, media.source),
      withFileDigests(model, ourList ?? [], media.target),
    ]);
    const comparison: ModelComparison = {
      model: model.key,
      equal: 0,
      differing: 0,
      missing: 0,
      extra: 0,
      differences: [],
    };
    const byId = new Map(ours.map((o) => [Number(o.id), o]));
    const ignored = new Set(IGNORED[model.key] ?? []);
    for (const object of theirs) {
      const id = Number(object.id);
      const mine = byId.get(id);
      byId.delete(id);
      if (!mine) {
        comparison.missing++;
        if (comparison.differences.length < SHOWN_DIFFERENCES) comparison.differences.push(`${id}: missing`);
        continue;
      }
      const found = differences(normalise(object, source.base, ignored), normalise(mine, target.base, ignored));
      if (found.length === 0) comparison.equal++;
      else {
        comparison.differing++;
        if (comparison.differences.length < SHOWN_DIFFERENCES) comparison.differences.push(`${id} ${found[0]}`);
      }
    }
    comparison.extra = byId.size;
    results.push(comparison);
  }
  const history = await compareHistory(source, target);
  if (history) results.push(history);
  return results;
}

/** What a change says, whatever its id (the log position here, a row id there). */
const CHANGE_FIELDS = [
  'display',
  'user_name',
  'object_repr',
  'related_object_type',
  'related_object_id',
  'prechange_data',
  'postchange_data',
];

/**
 * The source's change log against the netledger's: each source change (by request,
 * object, action and time) must be there saying the same. The netledger's further
 * changes (the import's own, baselines) are `extra`.
 */
async function compareHistory(source: SourceApi, target: SourceApi): Promise<ModelComparison | null> {
  const [theirs, ours] = await Promise.all([
    source.list('extras/object-changes'),
    target.list('extras/object-changes'),
  ]);
  if (theirs === null) return null;
  const keyOf = (c: Record<string, unknown>) =>
    [c.request_id, c.changed_object_type, c.changed_object_id, actionOf(c), eventTimeOrSelf(c.time)].join('|');
  const mine = new Map<string, Record<string, unknown>>();
  for (const change of ours ?? []) mine.set(keyOf(change), change);
  const comparison: ModelComparison = {
    model: 'extras.objectchange',
    equal: 0,
    differing: 0,
    missing: 0,
    extra: 0,
    differences: [],
  };
  for (const change of theirs) {
    const key = keyOf(change);
    const match = mine.get(key);
    mine.delete(key);
    const label = `${change.changed_object_type} ${change.changed_object_id} ${(change.action as { value?: unknown })?.value} at ${change.time}`;
    if (!match) {
      comparison.missing++;
      if (comparison.differences.length < SHOWN_DIFFERENCES) comparison.differences.push(`${label}: missing`);
      continue;
    }
    // What the source serves (NetBox 3.4 has no object_repr nor related object).
    const fields = CHANGE_FIELDS.filter((f) => Object.hasOwn(change, f));
    const pick = (c: Record<string, unknown>, base: string) =>
      normalise(Object.fromEntries(fields.map((f) => [f, c[f]])), base, new Set());
    const found = differences(pick(change, source.base), pick(match, target.base));
    if (found.length === 0) comparison.equal++;
    else {
      comparison.differing++;
      if (comparison.differences.length < SHOWN_DIFFERENCES) comparison.differences.push(`${label} ${found[0]}`);
    }
  }
  comparison.extra = mine.size;
  return comparison;
}

function actionOf(change: Record<string, unknown>): unknown {
  return (change.action as { value?: unknown } | null)?.value ?? change.action;
}

function eventTimeOrSelf(value: unknown): string {
  try {
    return eventTime(String(value));
  } catch {
    return String(value);
  }
}

/**
 * Where the netledger may hold more than the source: tokens made for the operator after
 * the import, and the import's own changes (and baselines) in the change log.
 */
const EXTRA_ALLOWED = new Set(['users.token', 'extras.objectchange']);

/** True when nothing differs, nothing is missing and nothing is extra beyond what EXTRA_ALLOWED allows. */
export function verified(results: ModelComparison[]): boolean {
  return results.every((r) => r.differing === 0 && r.missing === 0 && (r.extra === 0 || EXTRA_ALLOWED.has(r.model)));
}

export function comparisonTable(results: ModelComparison[]): string {
  const width = Math.max(5, ...results.map((r) => r.model.length));
  const lines = [
    `${'model'.padEnd(width)}  ${'equal'.padStart(7)}  ${'differing'.padStart(9)}  ${'missing'.padStart(7)}  ${'extra'.padStart(5)}`,
  ];
  for (const r of results) {
    lines.push(
      `${r.model.padEnd(width)}  ${String(r.equal).padStart(7)}  ${String(r.differing).padStart(9)}  ${String(r.missing).padStart(7)}  ${String(r.extra).padStart(5)}`,
    );
    for (const d of r.differences) lines.push(`    ${d}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The object with its own API's origin taken out of every URL and the ignored fields left out. */
function normalise(value: unknown, base: string, ignored: Set<string>, top = true): unknown {
  if (typeof value === 'string') return value.startsWith(base) ? value.slice(base.length) : value;
  if (Array.isArray(value)) return value.map((v) => normalise(v, base, ignored, false));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value))
      if (!(top && ignored.has(key))) out[key] = normalise(v, base, ignored, false);
    return out;
  }
  return value;
}

/** `field: a ≠ b` for every differing path, deepest first named. */
function differences(a: unknown, b: unknown, path = ''): string[] {
  if (canonical(a) === canonical(b)) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) =>
      differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k),
    );
  }
  return [`${path || '(object)'}: ${short(a)} ≠ ${short(b)}`];
}

function short(value: unknown): string {
  const text = value === undefined ? '(absent)' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** JSON with object keys sorted: the two APIs need not list fields in the same order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}

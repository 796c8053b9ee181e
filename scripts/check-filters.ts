/**
 * Compares every registered model's list filters (derived from its fields plus its
 * `filters` declarations, see src/api/query/filterSet.ts) with the NetBox 3.4 reference
 * (`filters`, `filter_kinds` / `filter_info`, `filter_notes` in *.json).
 *
 *   npx tsx scripts/check-filters.ts            report per model: missing, extra, lookup differences
 *   npx tsx scripts/check-filters.ts --suggest  also print a declaration for each missing filter
 *                                               that the reference describes mechanically
 *   npx tsx scripts/check-filters.ts --strict   exit 1 when a filter is missing or extra
 *
 * Declarations are written by hand into the model files from these suggestions (the
 * reference is the spec; methods and notes need reading).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { type Filter, filterSetOf } from '../src/api/query/filterSet.js';
import type { ModelDefinition } from '../src/models/modelDefinition.js';
import { type ModelRegistry, registry } from '../src/models/registry.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface FilterReference {
  model: string;
  path: string;
  filters?: Record<string, string[]>;
  filter_kinds?: Record<string, string>;
  filter_info?: Record<string, Record<string, Json>>;
  filter_notes?: Record<string, string>;
}

const REFERENCE_DIR =
  process.env.NETBOX_REFERENCE_DIR ?? fileURLToPath(new URL('../../shared/reference/netbox-3.4/', import.meta.url));

/** The reference's filter facts of every model, by list path ('/api/<app>/<path>/'). */
export function loadReference(): Map<string, FilterReference> {
  const byPath = new Map<string, FilterReference>();
  for (const file of readdirSync(REFERENCE_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const data = JSON.parse(readFileSync(path.join(REFERENCE_DIR, file), 'utf8')) as { models?: FilterReference[] };
    for (const model of data.models ?? []) if (typeof model.path === 'string') byPath.set(model.path, model);
  }
  return byPath;
}

function lookupsOf(filter: Filter): string[] {
  return ['exact', ...filter.lookups].sort();
}

/** A related declaration from a filter_info entry ({matches, by, path, includes_descendants}). */
function suggestFromInfo(definition: ModelDefinition, info: Record<string, Json>): string | null {
  if (typeof info.matches !== 'string' || typeof info.path !== 'string') return null;
  const by = typeof info.by === 'string' ? info.by : 'id';
  let steps = info.path.split('__');
  if (steps[steps.length - 1] === by) steps = steps.slice(0, -1);
  steps = steps.map((s, i) => (i === steps.length - 1 && s.endsWith('_id') ? s.slice(0, -3) : s));
  const known = steps.length > 0 && definition.fields.some((f) => f.name === steps[0]);
  const parts = [`kind: 'related'`, `target: '${info.matches}'`];
  if (by !== 'id') parts.push(`by: '${by}'`);
  parts.push(`path: [${known ? steps.map((s) => `'${s}'`).join(', ') : ''}]`);
  if (info.includes_descendants) parts.push('includeDescendants: true');
  if (info.all_required) parts.push('all: true');
  if (info.single_value) parts.push('single: true');
  return `{ ${parts.join(', ')} }${known ? '' : ' /* relation not held here */'}`;
}

export interface FilterComparison {
  model: string;
  /** Reference filters netledger does not answer. */
  missing: string[];
  /** netledger filters NetBox does not have. */
  extra: string[];
  /** Lookup or semantic differences. */
  differences: string[];
  /** Suggested declarations for the missing ones (from filter_info / filter_kinds). */
  suggestions: string[];
}

/** Every registered model's filters against the reference (models without reference filters are left out). */
export function compareWithReference(): FilterComparison[] {
  const reference = loadReference();
  const out: FilterComparison[] = [];
  for (const definition of registry.all()) {
    const ref = reference.get(`/api/${definition.app}/${definition.path}/`);
    const result = ref ? compareDefinition(definition, ref) : null;
    if (result) out.push(result);
  }
  return out;
}

/**
 * One model's filters against its reference entry (null when the reference lists none);
 * the definition need not be registered (the model generator checks what it writes, with
 * `models` knowing it too).
 */
export function compareDefinition(
  definition: ModelDefinition,
  ref: FilterReference,
  models: ModelRegistry = registry,
): FilterComparison | null {
  if (!ref.filters) return null;
  const ours = filterSetOf(models, definition);
  const result: FilterComparison = { model: definition.key, missing: [], extra: [], differences: [], suggestions: [] };
  const hasCustomFields = definition.fields.some((f) => f.type === 'custom_fields');
  for (const [name, refLookups] of Object.entries(ref.filters)) {
    // custom-field filters are built per request from the custom fields defined
    if (name === 'cf_<name>' && hasCustomFields) continue;
    const filter = ours.get(name);
    if (!filter) {
      // a reference name like 'mask_length__gte' may be a lookup of one of ours
      const split = name.lastIndexOf('__');
      const base = split > 0 ? ours.get(name.slice(0, split)) : undefined;
      if (base && base.lookups.has(name.slice(split + 2))) continue;
      result.missing.push(name);
      const info = ref.filter_info?.[name];
      const suggestion = info ? suggestFromInfo(definition, info) : null;
      const kind = ref.filter_kinds?.[name] ?? (info ? JSON.stringify(info) : '?');
      const note = ref.filter_notes?.[name] ?? (typeof info?.note === 'string' ? info.note : '');
      result.suggestions.push(`${name}: ${suggestion ?? `/* ${kind} */`}${note ? `  // ${note}` : ''}`);
      continue;
    }
    if (name === 'q') continue;
    const info = ref.filter_info?.[name];
    const kind = ref.filter_kinds?.[name];
    const tree = info?.includes_descendants === true || kind === 'tree_id' || kind === 'tree_slug';
    if (tree && !((filter.kind === 'related' || filter.kind === 'method') && filter.includeDescendants))
      result.differences.push(`${name}: reference includes descendants`);
    if (!tree && filter.kind === 'related' && filter.includeDescendants)
      result.differences.push(`${name}: ours includes descendants, reference does not`);
    if (typeof info?.by === 'string' && filter.kind === 'related' && filter.by !== info.by)
      result.differences.push(`${name}: ours by ${filter.by}, reference by ${info.by}`);
    if (
      kind &&
      ['rd', 'name', 'slug', 'identifier', 'address'].includes(kind) &&
      filter.kind === 'related' &&
      filter.by !== kind
    ) {
      result.differences.push(`${name}: ours by ${filter.by}, reference by ${kind}`);
    }
    const mine = lookupsOf(filter);
    const theirs = [...refLookups].sort();
    if (mine.join() !== theirs.join()) result.differences.push(`lookups ${name}: ours [${mine}] reference [${theirs}]`);
  }
  for (const name of ours.keys()) if (!(name in ref.filters)) result.extra.push(name);
  return result;
}

function main(): void {
  const args = new Set(process.argv.slice(2));
  let problems = 0;
  for (const r of compareWithReference()) {
    if (!r.missing.length && !r.extra.length && !r.differences.length) {
      console.log(`${r.model}: ok`);
      continue;
    }
    problems += r.missing.length + r.extra.length;
    console.log(`${r.model}:`);
    if (r.missing.length) console.log(`  missing: ${r.missing.join(', ')}`);
    if (r.extra.length) console.log(`  extra (not in NetBox): ${r.extra.join(', ')}`);
    for (const d of r.differences) console.log(`  ${d}`);
    if (args.has('--suggest')) for (const line of r.suggestions) console.log(`    ${line}`);
  }
  if (args.has('--strict') && problems > 0) process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) main();

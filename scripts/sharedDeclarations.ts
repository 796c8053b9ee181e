/**
 * Declarations src/models already spells (common fields, the organizational and nested
 * group builders): the generator recognises them in a converted model and refers to them.
 */
import * as commonFields from '../src/models/commonFields.js';
import type { FieldDefinition } from '../src/models/fieldDefinition.js';
import { isTree, type Json, type RefModel } from './netboxReference.js';
import { quote } from './typescriptSource.js';

/** Key order and equivalent defaults do not make two declarations different. */
export function canonical(def: Record<string, unknown>): string {
  const copy: Record<string, unknown> = { ...def };
  if (copy.type === 'tags' && copy.default === undefined) copy.default = [];
  if (copy.type === 'custom_fields' && copy.default === undefined) copy.default = {};
  return JSON.stringify(
    Object.keys(copy)
      .sort()
      .map((k) => [k, copy[k]]),
  );
}

const SHARED_RUNS: Array<[string, FieldDefinition[]]> = [
  ['identityFields', commonFields.identityFields],
  ['changeLoggedFields', commonFields.changeLoggedFields],
];

const SHARED_FIELDS: Array<[string, FieldDefinition]> = [
  ['slugField', commonFields.slugField],
  ['descriptionField', commonFields.descriptionField],
  ['familyField', commonFields.familyField],
  ['weightUnitField', commonFields.weightUnitField],
  ['depthField', commonFields.depthField],
  ['siteStatusField', commonFields.siteStatusField],
  ['scopedSlugField', commonFields.scopedSlugField],
  ['tenantField', commonFields.tenantField],
];

export function sharedRunAt(defs: Record<string, unknown>[], at: number): { name: string; length: number } | null {
  for (const [name, run] of SHARED_RUNS) {
    if (
      run.every(
        (field, j) =>
          defs[at + j] && canonical(defs[at + j]) === canonical(field as unknown as Record<string, unknown>),
      )
    ) {
      return { name, length: run.length };
    }
  }
  return null;
}

export function sharedField(def: Record<string, unknown>): { name: string; code: string } | null {
  for (const [name, field] of SHARED_FIELDS) {
    if (canonical(def) === canonical(field as unknown as Record<string, unknown>)) return { name, code: name };
  }
  if (
    def.name === 'name' &&
    canonical(def) ===
      canonical(commonFields.uniqueNameField(Number(def.maxLength)) as unknown as Record<string, unknown>)
  ) {
    return {
      name: 'uniqueNameField',
      code: def.maxLength === 100 ? 'uniqueNameField()' : `uniqueNameField(${String(def.maxLength)})`,
    };
  }
  if (
    def.name === 'parent' &&
    typeof def.target === 'string' &&
    canonical(def) === canonical(commonFields.parentField(def.target) as unknown as Record<string, unknown>)
  ) {
    return { name: 'parentField', code: `parentField(${quote(def.target)})` };
  }
  const count = def.count as { model: string; via: string; where?: unknown } | undefined;
  if (
    def.type === 'count' &&
    count &&
    !count.where &&
    canonical(def) ===
      canonical(commonFields.countField(String(def.name), count.model, count.via) as unknown as Record<string, unknown>)
  ) {
    return {
      name: 'countField',
      code: `countField(${quote(String(def.name))}, ${quote(count.model)}, ${quote(count.via)})`,
    };
  }
  return null;
}

/** Organizational models: name and slug (unique), own fields, description, change-logged fields, counts. */
export function organizationalShape(defs: Record<string, Json>[]): { own: number; counts: number } | null {
  const same = (def: Record<string, Json> | undefined, field: FieldDefinition) =>
    def !== undefined && canonical(def) === canonical(field as unknown as Record<string, unknown>);
  if (!sharedRunAt(defs, 0) || sharedRunAt(defs, 0)!.name !== 'identityFields') return null;
  if (!same(defs[3], commonFields.uniqueNameField()) || !same(defs[4], commonFields.slugField)) return null;
  const description = defs.findIndex((def, i) => i > 4 && same(def, commonFields.descriptionField));
  if (description < 0) return null;
  const run = sharedRunAt(defs, description + 1);
  if (run?.name !== 'changeLoggedFields') return null;
  const countsFrom = description + 1 + run.length;
  if (!defs.slice(countsFrom).every((def) => def.type === 'count')) return null;
  return { own: description - 5, counts: defs.length - countsFrom };
}

/**
 * Nested groups: name, slug, parent, description, change-logged fields, counts, depth; names
 * and slugs unique globally or among siblings. Returns how many counts, or null.
 */
export function nestedGroupShape(
  model: RefModel,
  defs: Record<string, Json>[],
  unique: Record<string, Json>[],
): { siblings: boolean; counts: number } | null {
  const same = (def: Record<string, Json> | undefined, field: FieldDefinition) =>
    def !== undefined && canonical(def) === canonical(field as unknown as Record<string, unknown>);
  if (!isTree(model) || sharedRunAt(defs, 0)?.name !== 'identityFields') return null;
  const global =
    same(defs[3], commonFields.uniqueNameField()) && same(defs[4], commonFields.slugField) && unique.length === 0;
  const plainName = { name: 'name', type: 'string', required: true, maxLength: 100 } as FieldDefinition;
  const siblings =
    same(defs[3], plainName) &&
    same(defs[4], commonFields.scopedSlugField) &&
    JSON.stringify(unique) === JSON.stringify(commonFields.siblingUnique(model.verbose_name));
  if (!global && !siblings) return null;
  if (!same(defs[5], commonFields.parentField(model.model)) || !same(defs[6], commonFields.descriptionField))
    return null;
  if (sharedRunAt(defs, 7)?.name !== 'changeLoggedFields' || !same(defs[defs.length - 1], commonFields.depthField))
    return null;
  const counts = defs.slice(7 + commonFields.changeLoggedFields.length, -1);
  return counts.every((def) => def.type === 'count') ? { siblings, counts: counts.length } : null;
}

/**
 * The order an import writes models in, worked out from the registry's relation fields:
 * every model after the models its objects reference (tags and custom fields before the
 * objects that carry them, templates before devices, terminations before cables). A
 * cycle between models is broken by holding back a nullable reference, set in a second
 * pass once its target exists: first a one-to-one designation (a device's primary IP, a
 * chassis's master), else any nullable foreign key.
 */
import type { FieldDefinition } from '../models/fieldDefinition.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelRegistry } from '../models/registry.js';

export interface ImportOrder {
  /** Models that can be written, in writing order. */
  models: ModelDefinition[];
  /** model key → fields written in the second pass. */
  deferred: Map<string, string[]>;
}

interface Edge {
  from: string;
  to: string;
  field: FieldDefinition;
}

/** Models an import writes: those clients may write (read-only ones are derived, e.g. cable terminations). */
export function importedModels(registry: ModelRegistry): ModelDefinition[] {
  return registry.all().filter((model) => !model.readOnly);
}

/** The relation fields a client writes, with the models they may point at. */
export function relationTargets(model: ModelDefinition): Array<{ field: FieldDefinition; targets: string[] }> {
  const found: Array<{ field: FieldDefinition; targets: string[] }> = [];
  const typeFields = new Set(model.fields.filter((f) => f.type === 'generic_fk').map((f) => f.typeField));
  for (const field of model.fields) {
    if (field.readOnly || field.internal) continue;
    if ((field.type === 'fk' || field.type === 'm2m' || field.type === 'tags') && field.target)
      found.push({ field, targets: [field.target] });
    else if (field.type === 'generic_list' && field.targets) found.push({ field, targets: field.targets });
    else if (field.type === 'custom_fields') found.push({ field, targets: ['extras.customfield'] });
  }
  // A generic foreign key is written through its content-type field.
  for (const field of model.fields) {
    if (field.type === 'generic_fk' && field.targets && typeFields.has(field.typeField)) {
      const typeField = model.fields.find((f) => f.name === field.typeField);
      if (typeField && !typeField.readOnly) found.push({ field: typeField, targets: field.targets });
    }
  }
  return found;
}

export function importOrder(registry: ModelRegistry): ImportOrder {
  const models = importedModels(registry);
  const keys = new Set(models.map((m) => m.key));
  const edges: Edge[] = [];
  for (const model of models) {
    for (const { field, targets } of relationTargets(model)) {
      for (const to of targets) if (to !== model.key && keys.has(to)) edges.push({ from: model.key, to, field });
    }
  }
  const deferred = new Map<string, string[]>();
  const held = new Set<Edge>();
  const ordered: ModelDefinition[] = [];
  const remaining = new Map(models.map((m) => [m.key, m]));
  while (remaining.size > 0) {
    const ready = [...remaining.values()].filter(
      (m) => !edges.some((e) => e.from === m.key && remaining.has(e.to) && !held.has(e)),
    );
    if (ready.length > 0) {
      for (const model of ready) {
        ordered.push(model);
        remaining.delete(model.key);
      }
      continue;
    }
    const stuck = edges.filter((e) => remaining.has(e.from) && remaining.has(e.to) && !held.has(e));
    const breakable =
      stuck.find((e) => isDeferrable(e.field) && e.field.oneToOne) ?? stuck.find((e) => isDeferrable(e.field));
    if (!breakable)
      throw new Error(`no import order: a cycle of required references among ${[...remaining.keys()].join(', ')}`);
    // The field is held back for every target, not only this edge.
    for (const e of edges) if (e.from === breakable.from && e.field === breakable.field) held.add(e);
    const names = deferred.get(breakable.from) ?? [];
    names.push(breakable.field.name);
    deferred.set(breakable.from, names);
  }
  return { models: ordered, deferred };
}

/** A reference that may be left empty on creation and set afterwards. */
function isDeferrable(field: FieldDefinition): boolean {
  return field.type === 'fk' && field.nullable === true && !field.required;
}

/**
 * A model's objects in an order that satisfies references among themselves (a region's
 * parent, an interface's LAG, a prefix... any self-reference): an object after the ones
 * it names. Objects in a self-referencing cycle (which no source should hold) keep
 * their order at the end.
 */
export function orderWithinModel(
  model: ModelDefinition,
  objects: Array<Record<string, unknown>>,
): Array<Record<string, unknown>> {
  const selfFields = model.fields
    .filter((f) => !f.readOnly && (f.type === 'fk' || f.type === 'm2m') && f.target === model.key)
    .map((f) => f.name);
  if (selfFields.length === 0) return objects;
  const byId = new Map(objects.map((o) => [Number(o.id), o]));
  const placed = new Set<number>();
  const result: Array<Record<string, unknown>> = [];
  const visiting = new Set<number>();
  const place = (obj: Record<string, unknown>) => {
    const id = Number(obj.id);
    if (placed.has(id) || visiting.has(id)) return;
    visiting.add(id);
    for (const name of selfFields) {
      for (const ref of idsIn(obj[name])) {
        const target = byId.get(ref);
        if (target) place(target);
      }
    }
    visiting.delete(id);
    placed.add(id);
    result.push(obj);
  };
  for (const obj of objects) place(obj);
  return result;
}

function idsIn(value: unknown): number[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(idsIn);
  if (typeof value === 'number') return [value];
  if (typeof value === 'object' && typeof (value as { id?: unknown }).id === 'number')
    return [(value as { id: number }).id];
  return [];
}

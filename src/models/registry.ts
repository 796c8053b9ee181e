/**
 * The model registry: lookup of model definitions by content-type key and by URL,
 * reverse relations for delete handling, and a consistency check of the definitions.
 * Definitions are held as the rest of the service reads them, with the facts their
 * fields imply filled in (src/models/derivedFacts.ts).
 */
import { isPlainFieldConstraint, withDerivedFacts } from './derivedFacts.js';
import type { DetailAction } from './detailEndpoints.js';
import type { FieldDefinition } from './fieldDefinition.js';
import { allModels } from './index.js';
import type { ModelDefinition } from './modelDefinition.js';
import { orderedRelations } from './relationOrder.js';

export interface ModelReference {
  /** The referencing model. */
  model: ModelDefinition;
  /** Its fk, m2m or tags field that targets the referenced model. */
  field: FieldDefinition;
}

const RELATION_TYPES = new Set(['fk', 'm2m', 'tags']);

export class ModelRegistry {
  private readonly byKey = new Map<string, ModelDefinition>();
  private readonly byUrl = new Map<string, ModelDefinition>();
  private readonly definitions: ModelDefinition[];
  /** The definitions as their model files declare them. */
  private readonly declared: ModelDefinition[];

  constructor(definitions: ModelDefinition[]) {
    this.declared = [...definitions];
    this.definitions = this.declared.map(withDerivedFacts);
    for (const def of this.definitions) {
      if (!this.byKey.has(def.key)) this.byKey.set(def.key, def);
      const url = `${def.app}/${def.path}`;
      if (!this.byUrl.has(url)) this.byUrl.set(url, def);
    }
  }

  /** The definition for '<app_label>.<model>'; throws when unknown. */
  get(key: string): ModelDefinition {
    const def = this.byKey.get(key);
    if (!def) throw new Error(`Unknown model: ${key}`);
    return def;
  }

  tryGet(key: string): ModelDefinition | undefined {
    return this.byKey.get(key);
  }

  /** The definition served at /api/<app>/<path>/ (e.g. 'dcim', 'device-types'). */
  byPath(app: string, path: string): ModelDefinition | undefined {
    return this.byUrl.get(`${app}/${path.replace(/^\/+|\/+$/g, '')}`);
  }

  all(): ModelDefinition[] {
    return [...this.definitions];
  }

  /** URL app -> its definitions, in registration order. */
  apps(): Map<string, ModelDefinition[]> {
    const apps = new Map<string, ModelDefinition[]>();
    for (const def of this.definitions) {
      const list = apps.get(def.app) ?? [];
      list.push(def);
      apps.set(def.app, list);
    }
    return apps;
  }

  /**
   * Fields of registered models that can point at a `key` object, for delete protection,
   * cascades, nulling and removal from lists: fk, m2m and tags fields whose target is
   * `key`, and generic_fk fields whose targets include it (NetBox cascades those), and
   * generic_list fields whose targets include it (the item is removed from the list).
   */
  referencesTo(key: string): ModelReference[] {
    const refs: ModelReference[] = [];
    for (const model of this.definitions) {
      for (const field of model.fields) {
        if (RELATION_TYPES.has(field.type) && field.target === key) refs.push({ model, field });
        else if ((field.type === 'generic_fk' || field.type === 'generic_list') && field.targets?.includes(key))
          refs.push({ model, field });
      }
    }
    return refs;
  }

  /**
   * Computed fields whose value can change when a `key` object changes (they declare
   * `dependsOn: [key]`): which rendered values a write to `key` can alter.
   */
  dependentsOf(key: string): ModelReference[] {
    const refs: ModelReference[] = [];
    for (const model of this.definitions) {
      for (const field of model.fields) if (field.dependsOn?.includes(key)) refs.push({ model, field });
    }
    return refs;
  }

  /** Throws an Error listing every inconsistency found in the definitions. */
  validate(): void {
    const problems: string[] = [];
    const keys = new Set<string>();
    const urls = new Set<string>();
    for (const def of this.definitions) {
      const where = def.key || '(no key)';
      const report = (message: string) => problems.push(`${where}: ${message}`);
      if (!/^[a-z_]+\.[a-z0-9_]+$/.test(def.key)) report(`malformed key '${def.key}'`);
      else if (def.key.split('.')[1] !== def.model) report(`model '${def.model}' does not match the key`);
      if (keys.has(def.key)) report('duplicate key');
      keys.add(def.key);
      const url = `${def.app}/${def.path}`;
      if (urls.has(url)) report(`duplicate path ${url}`);
      urls.add(url);
      if (!/^[a-z0-9-]+$/.test(def.path)) report(`malformed path '${def.path}'`);

      const fields = new Map<string, FieldDefinition>();
      for (const field of def.fields) {
        if (fields.has(field.name)) report(`duplicate field '${field.name}'`);
        fields.set(field.name, field);
        for (const message of fieldProblems(def, field)) report(`field '${field.name}': ${message}`);
      }
      if (fields.get('id')?.type !== 'id') report("no 'id' field of type id");

      for (const name of def.brief) {
        const field = fields.get(name);
        if (!field) report(`brief key '${name}' is not a field`);
        else if (field.internal || field.writeOnly) report(`brief key '${name}' is never rendered`);
      }
      const isKnown = (name: string) => name === 'id' || name.startsWith('_') || fields.has(name);
      if (!def.ordering.length) report('empty ordering');
      for (const term of def.ordering) {
        if (!isKnown(term.replace(/^-/, ''))) report(`ordering term '${term}' is not a field`);
      }
      for (const name of def.idOrderedRelations ?? [])
        if (!def.ordering.includes(name)) report(`id-ordered relation '${name}' is not in the ordering`);
      for (const relation of orderedRelations(def)) {
        const target = this.byKey.get(relation.target);
        // the kept key orders ascending; a descending term of the target's ordering would need a reversed encoding
        if (target?.ordering.some((t) => t.startsWith('-')))
          report(`ordering term '${relation.field}' follows ${relation.target}, whose ordering descends`);
      }
      for (const name of def.orderingFields ?? []) {
        if (!fields.has(name)) report(`ordering field '${name}' is not a field`);
      }
      for (const constraint of def.unique ?? []) {
        if (!constraint.fields.length) report('unique constraint without fields');
        for (const name of [...constraint.fields, ...(constraint.caseInsensitive ?? [])]) {
          if (!isKnown(name)) report(`unique field '${name}' is not a field`);
        }
        for (const name of constraint.caseInsensitive ?? []) {
          if (!constraint.fields.includes(name)) report(`case-insensitive '${name}' is not in the constraint`);
        }
        if (constraint.whenNull !== undefined && !fields.has(constraint.whenNull)) {
          report(`unique condition field '${constraint.whenNull}' is not a field`);
        }
      }
      for (const name of def.search ?? []) {
        if (!fields.has(name)) report(`search field '${name}' is not a field`);
      }
      for (const field of def.fields) {
        for (const key of field.dependsOn ?? []) {
          if (!this.byKey.has(key)) report(`field '${field.name}': depends on unknown model '${key}'`);
        }
        const computedBy = def.hooks?.compute?.[field.name] ?? field.computeMany;
        if (field.dependsOn && (field.type !== 'computed' || !computedBy)) {
          report(`field '${field.name}': dependsOn without a computed field and its compute hook`);
        }
        if (field.computeMany && (field.type !== 'computed' || def.hooks?.compute?.[field.name])) {
          report(`field '${field.name}': computeMany on a field that is not computed, or has a compute hook too`);
        }
      }
      if (def.displayReads?.length && !def.hooks?.display) report('displayReads without a display hook');
      for (const key of def.displayReads ?? []) {
        if (!this.byKey.has(key)) report(`display reads unknown model '${key}'`);
      }
      for (const name of Object.keys(def.hooks?.compute ?? {})) {
        if (fields.get(name)?.type !== 'computed') report(`compute hook '${name}' is not a computed field`);
      }
      for (const action of def.detailActions ?? []) {
        for (const message of this.detailActionProblems(action)) report(`detail action '${action.path}': ${message}`);
      }
    }
    for (const def of this.declared) {
      for (const constraint of def.unique ?? []) {
        if (isPlainFieldConstraint(constraint)) {
          problems.push(
            `${def.key}: unique constraint on '${constraint.fields[0]}' alone: mark the field unique instead`,
          );
        }
      }
    }
    if (problems.length) throw new Error(`Inconsistent model definitions:\n  ${problems.join('\n  ')}`);
  }

  /**
   * The fields a detail action's allocator names must be writable fields of the created
   * model (checked where that model is registered: a registry may hold a part of the models).
   */
  private detailActionProblems(action: DetailAction): string[] {
    const problems: string[] = [];
    if (!/^[a-z0-9-]+$/.test(action.path)) problems.push('malformed path');
    const created = this.byKey.get(action.creates);
    if (!created) return problems;
    const { shape } = action.allocator;
    const computed = new Set(['id', 'url', 'display', 'count', 'reverse', 'computed', 'generic_fk']);
    const writable = new Set(
      created.fields.filter((f) => !f.readOnly && !f.internal && !computed.has(f.type)).map((f) => f.name),
    );
    for (const name of [...(shape.fields ?? []), ...shape.assigned]) {
      if (!writable.has(name)) problems.push(`'${name}' is not a writable field of ${created.key}`);
    }
    for (const field of shape.extra ?? []) {
      if (writable.has(field.name)) problems.push(`extra '${field.name}' is a field of ${created.key}`);
    }
    return problems;
  }
}

function fieldProblems(def: ModelDefinition, field: FieldDefinition): string[] {
  const problems: string[] = [];
  const names = new Set(def.fields.map((f) => f.name));
  const needsTarget = field.type === 'fk' || field.type === 'm2m' || field.type === 'tags' || field.type === 'reverse';
  if (needsTarget && !field.target) problems.push('no target');
  if (field.target !== undefined && !/^[a-z_]+\.[a-z0-9_]+$/.test(field.target)) problems.push('malformed target');
  if (field.type === 'choice' && !field.choices?.length) problems.push('choice without choices');
  if (field.type === 'count') {
    if (!field.count?.model || !field.count.via) problems.push('count without model/via');
  }
  if (field.type === 'reverse' && !field.via) problems.push('reverse without via');
  if (field.type === 'generic_list' && !field.targets?.length) problems.push('generic_list without targets');
  if (field.type === 'generic_fk') {
    if (!field.typeField || !names.has(field.typeField)) problems.push('generic_fk typeField is not a field');
    if (!field.idField || !names.has(field.idField)) problems.push('generic_fk idField is not a field');
    if (!field.targets?.length) problems.push('generic_fk without targets');
  }
  // A content_type field without allowedTypes accepts any registered model (e.g. a custom field's object_type).
  if (field.type === 'content_type' && field.allowedTypes && field.allowedTypes.length === 0)
    problems.push('content_type with an empty allowedTypes');
  if (field.type === 'array' && !field.items) problems.push('array without items');
  if (field.representation === 'slug' && field.type !== 'm2m')
    problems.push("representation 'slug' on a field that is not m2m");
  if (field.internal && (field.required || field.writeOnly))
    problems.push('internal field cannot be required or written');
  if (field.required && field.readOnly) problems.push('required and readOnly');
  if (field.min !== undefined && field.max !== undefined && field.min > field.max) problems.push('min > max');
  if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength) {
    problems.push('minLength > maxLength');
  }
  if (field.choices && field.default !== undefined && field.default !== '' && field.default !== null) {
    if (!field.choices.some((c) => c.value === field.default)) problems.push('default is not a choice');
  }
  return problems;
}

/** The registry of every model definition (validated on load). */
export const registry = new ModelRegistry(allModels);
registry.validate();

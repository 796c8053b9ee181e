import type { FollowUpCommand } from './compositeWrites.js';
import type { FieldDefinition } from './fieldDefinition.js';
import type { LookupView } from './lookupView.js';
import type { ModelCatalog } from './modelCatalog.js';
import type { ModelDefinition } from './modelDefinition.js';
import type { StoredObject } from './storedObject.js';

/**
 * Instantiation of component templates: a device type's (or module type's) templates
 * become components of a device (or module) in the request that creates it. Which
 * template model makes which component is read off the registry, so a new pair of
 * models takes part by being declared (see `ModelDefinition.instantiates`).
 */

/** The token a module type's template names and labels hold for the module bay's position. */
export const MODULE_TOKEN = '{module}';

/** Template fields that say whose template it is, never copied to a component. */
const OWNER_FIELDS = new Set(['device_type', 'module_type']);
const NEVER_COPIED = new Set(['id', 'url', 'display', 'created', 'last_updated', 'tags', 'custom_fields']);

export interface TemplatePair {
  template: ModelDefinition;
  component: ModelDefinition;
}

/** The component model a template model instantiates, if it is one. */
export function componentOf(template: ModelDefinition, models: ModelCatalog): ModelDefinition | undefined {
  const key =
    template.instantiates ??
    (template.model.endsWith('template') ? `${template.app}.${template.model.slice(0, -'template'.length)}` : null);
  return key ? models.tryGet(key) : undefined;
}

/** Template fields that point at another template (a front port template's rear port). */
function templateReferences(pair: TemplatePair, models: ModelCatalog): FieldDefinition[] {
  return pair.template.fields.filter(
    (f) => f.type === 'fk' && f.target && !OWNER_FIELDS.has(f.name) && isTemplateModel(f.target, models),
  );
}

function isTemplateModel(key: string, models: ModelCatalog): boolean {
  const definition = models.tryGet(key);
  return !!definition && !!componentOf(definition, models);
}

/**
 * Every template model with a foreign key to `owner` ('dcim.devicetype' or 'dcim.moduletype'),
 * referenced templates' models before the models that reference them, so the components
 * a reference is mapped to exist when it is resolved.
 */
export function templatePairs(owner: string, ownerField: string, models: ModelCatalog): TemplatePair[] {
  const pairs: TemplatePair[] = [];
  for (const template of models.all()) {
    const component = componentOf(template, models);
    if (!component) continue;
    if (!template.fields.some((f) => f.name === ownerField && f.type === 'fk' && f.target === owner)) continue;
    pairs.push({ template, component });
  }
  const ordered: TemplatePair[] = [];
  const visiting = new Set<string>();
  const visit = (pair: TemplatePair) => {
    if (ordered.includes(pair) || visiting.has(pair.template.key)) return;
    visiting.add(pair.template.key);
    for (const ref of templateReferences(pair, models)) {
      const target = pairs.find((p) => p.template.key === ref.target);
      if (target && target !== pair) visit(target);
    }
    ordered.push(pair);
  };
  pairs.forEach(visit);
  return ordered;
}

/** Where the components go: the device, and for a module's templates the module and its bay's position. */
export interface InstantiationTarget {
  device: number;
  module?: { id: number; position: string };
}

/** A template's name or label for its component: '{module}' becomes the module bay's position. */
export function resolveToken(value: unknown, target: InstantiationTarget): unknown {
  if (typeof value !== 'string' || !target.module) return value;
  return value.split(MODULE_TOKEN).join(target.module.position);
}

/**
 * The input of the component a template becomes: every field the component shares with
 * the template by name (owner fields and read-only ones aside), names and labels resolved,
 * references to other templates written as the components made from them on this device
 * (named by device and name, found once they are created earlier in the request).
 */
export function componentInput(
  pair: TemplatePair,
  template: StoredObject,
  templatesById: Map<string, Map<number, StoredObject>>,
  target: InstantiationTarget,
  models: ModelCatalog,
): Record<string, unknown> {
  const componentFields = new Map(pair.component.fields.map((f) => [f.name, f]));
  const input: Record<string, unknown> = { device: target.device };
  if (target.module && componentFields.has('module')) input.module = target.module.id;
  // A generic relation's pair names another template (an inventory item template's component): not copied.
  const genericPairs = new Set(
    pair.template.fields.flatMap((f) => (f.type === 'generic_fk' ? [f.typeField, f.idField] : [])),
  );
  for (const field of pair.template.fields) {
    if (genericPairs.has(field.name)) continue;
    if (OWNER_FIELDS.has(field.name) || NEVER_COPIED.has(field.name) || field.readOnly || field.internal) continue;
    if (field.type === 'content_type' || field.type === 'generic_fk' || field.type === 'generic_list') continue;
    const shared = componentFields.get(field.name);
    if (!shared || shared.readOnly || shared.internal) continue;
    const value = template[field.name];
    if (value === undefined) continue;
    if (field.type === 'fk' && field.target && isTemplateModel(field.target, models)) {
      const referenced = value == null ? undefined : templatesById.get(field.target)?.get(Number(value));
      input[field.name] = referenced ? { device: target.device, name: resolveToken(referenced.name, target) } : null;
      continue;
    }
    input[field.name] = field.name === 'name' || field.name === 'label' ? resolveToken(value, target) : value;
  }
  return input;
}

/** A model's templates with references to templates of the same model after their targets (an inventory item's parent). */
function parentsFirst(templates: StoredObject[], selfReferences: FieldDefinition[]): StoredObject[] {
  if (selfReferences.length === 0) return templates;
  const byId = new Map(templates.map((t) => [t.id, t]));
  const ordered: StoredObject[] = [];
  const seen = new Set<number>();
  const visit = (t: StoredObject) => {
    if (seen.has(t.id)) return;
    seen.add(t.id);
    for (const field of selfReferences) {
      const parent = byId.get(Number(t[field.name]));
      if (parent) visit(parent);
    }
    ordered.push(t);
  };
  templates.forEach(visit);
  return ordered;
}

export interface InstantiationOptions {
  /** Components of the device without a module and with the template's resolved name are given to the module instead. */
  adopt?: boolean;
  /** Create the components that are not adopted (default true). */
  replicate?: boolean;
}

/**
 * The follow-up commands that instantiate every template of an owner (`ownerField` =
 * its id) on `target`: one create per template, in dependency order; with `adopt`, an
 * update that hands an existing unowned same-named component of the device to the module.
 */
export async function instantiateTemplates(
  ownerModel: string,
  ownerField: 'device_type' | 'module_type',
  ownerId: number,
  target: InstantiationTarget,
  view: LookupView,
  models: ModelCatalog,
  options: InstantiationOptions = {},
): Promise<FollowUpCommand[]> {
  const pairs = templatePairs(ownerModel, ownerField, models);
  const templatesById = new Map<string, Map<number, StoredObject>>();
  const found = new Map<TemplatePair, StoredObject[]>();
  for (const pair of pairs) {
    const templates = await view.find(pair.template.key, { [ownerField]: ownerId });
    templates.sort((a, b) => a.id - b.id);
    found.set(pair, templates);
    templatesById.set(pair.template.key, new Map(templates.map((t) => [t.id, t])));
  }
  const commands: FollowUpCommand[] = [];
  for (const pair of pairs) {
    const selfReferences = templateReferences(pair, models).filter((f) => f.target === pair.template.key);
    for (const template of parentsFirst(found.get(pair)!, selfReferences)) {
      const input = componentInput(pair, template, templatesById, target, models);
      if (options.adopt && target.module) {
        const [existing] = await view.find(
          pair.component.key,
          { device: target.device, name: input.name, module: null },
          1,
        );
        if (existing) {
          commands.push({
            kind: 'update',
            model: pair.component.key,
            id: existing.id,
            input: { module: target.module.id },
          });
          continue;
        }
      }
      if (options.replicate === false) continue;
      commands.push({ kind: 'create', model: pair.component.key, input });
    }
  }
  return commands;
}

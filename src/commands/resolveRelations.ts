import type { FieldErrors } from '../errors/fieldErrors.js';
import { addError } from '../errors/requestErrors.js';
import { contentTypeDisplay } from '../models/contentTypeDisplay.js';
import type { FieldDefinition } from '../models/fieldDefinition.js';
import type { LookupView } from '../models/lookupView.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { CommandEnvironment, RelationContext } from './CommandEnvironment.js';
import { resolveGenericList } from './resolveGenericList.js';
import { resolveReference } from './resolveReference.js';
import { pythonTypeName } from './writeSchema.js';

/** Resolves or checks the value sent for one field, writing into `resolved` or `errors`. */
type FieldResolver = (field: FieldDefinition, value: unknown, context: RelationContext) => Promise<void> | void;

/**
 * Resolve every related object the client named (by id or by attributes) into the ids
 * that are stored, and check the values only the registry can judge (content types,
 * custom field data). Fields the schema already refused are left alone.
 */
export async function resolveRelations(
  env: CommandEnvironment,
  view: LookupView,
  definition: ModelDefinition,
  sent: Record<string, unknown>,
  errors: FieldErrors,
): Promise<Record<string, unknown>> {
  const context: RelationContext = { env, view, definition, sent, resolved: { ...sent }, errors };
  for (const field of definition.fields) {
    if (!Object.hasOwn(sent, field.name) || errors[field.name]) continue;
    const resolver = resolverFor(field);
    if (resolver) await resolver(field, sent[field.name], context);
  }
  await resolveGenericPairs(context);
  return context.resolved;
}

function resolverFor(field: FieldDefinition): FieldResolver | undefined {
  if (field.type === 'array') return field.items === 'content_type' ? checkContentTypeList : undefined;
  return RESOLVERS[field.type];
}

const RESOLVERS: Partial<Record<FieldDefinition['type'], FieldResolver>> = {
  fk: resolveForeignKey,
  m2m: (field, value, context) =>
    field.representation === 'slug' ? resolveSlugList(field, value, context) : resolveManyToMany(field, value, context),
  tags: resolveManyToMany,
  content_type: checkContentType,
  custom_fields: checkCustomFieldData,
  generic_list: resolveGenericList,
};

async function resolveForeignKey(
  field: FieldDefinition,
  value: unknown,
  { env, view, resolved, errors }: RelationContext,
): Promise<void> {
  if (!field.target) return;
  if (value === null) {
    if (!field.nullable) addError(errors, field.name, 'This field may not be null.');
    return;
  }
  const result = await resolveReference(env.registry, view, field.target, value);
  if ('error' in result) addError(errors, field.name, result.error);
  else resolved[field.name] = result.id;
}

/** Many-to-many and tags: every item resolved; errors reported per item, `{}` for the good ones. */
async function resolveManyToMany(
  field: FieldDefinition,
  value: unknown,
  { env, view, resolved, errors }: RelationContext,
): Promise<void> {
  if (!field.target) return;
  if (!Array.isArray(value)) {
    addError(
      errors,
      field.name,
      value === null
        ? 'This field may not be null.'
        : `Expected a list of items but got type "${pythonTypeName(value)}".`,
    );
    return;
  }
  const ids = new Set<number>();
  const itemErrors: Array<Record<string, never> | string[]> = [];
  let failed = false;
  for (const item of value) {
    const ref =
      field.type === 'm2m' && typeof item !== 'number' && typeof item !== 'string'
        ? { error: `Incorrect type. Expected pk value, received ${pythonTypeName(item)}.` }
        : await resolveReference(env.registry, view, field.target, item);
    if ('error' in ref) {
      failed = true;
      itemErrors.push([
        field.type === 'm2m' && /numeric ID/.test(ref.error)
          ? `Invalid pk "${String(item)}" - object does not exist.`
          : ref.error,
      ]);
    } else {
      ids.add(ref.id);
      itemErrors.push({});
    }
  }
  if (failed) (errors as Record<string, unknown>)[field.name] = itemErrors;
  else resolved[field.name] = [...ids].sort((a, b) => a - b);
}

/**
 * A list of slugs (NetBox's slug related field): the first item that names no object
 * refuses the field with one message, as DRF stops at it.
 */
async function resolveSlugList(
  field: FieldDefinition,
  value: unknown,
  { view, resolved, errors }: RelationContext,
): Promise<void> {
  if (!field.target) return;
  if (!Array.isArray(value)) {
    addError(
      errors,
      field.name,
      value === null
        ? 'This field may not be null.'
        : `Expected a list of items but got type "${pythonTypeName(value)}".`,
    );
    return;
  }
  const ids = new Set<number>();
  for (const item of value) {
    if (item !== null && typeof item === 'object') {
      addError(errors, field.name, 'Invalid value.');
      return;
    }
    const slug = item === null ? 'None' : typeof item === 'boolean' ? (item ? 'True' : 'False') : String(item);
    const [found] = await view.find(field.target, { slug: { $eq: slug } }, 1);
    if (!found) {
      addError(errors, field.name, `Object with slug=${slug} does not exist.`);
      return;
    }
    ids.add(found.id);
  }
  resolved[field.name] = [...ids].sort((a, b) => a - b);
}

function checkContentType(field: FieldDefinition, value: unknown, { env, definition, errors }: RelationContext): void {
  if (value === null) {
    if (!field.nullable) addError(errors, field.name, 'This field may not be null.');
    return;
  }
  const allowed = field.allowedTypes ?? (field.acceptsAnyModel ? undefined : genericTargets(definition, field.name));
  if (typeof value !== 'string' || !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(value)) {
    addError(errors, field.name, "Invalid value. Specify a content type as '<app_label>.<model_name>'.");
  } else if (allowed ? !allowed.includes(value) : !env.registry.tryGet(value)) {
    addError(errors, field.name, `Invalid content type: ${value}`);
  }
}

function checkContentTypeList(field: FieldDefinition, value: unknown, { env, errors }: RelationContext): void {
  if (!Array.isArray(value)) return;
  const accepted = (v: unknown) =>
    typeof v === 'string' && !!env.registry.tryGet(v) && (!field.allowedTypes || field.allowedTypes.includes(v));
  const unknown = value.find((v) => !accepted(v));
  if (unknown !== undefined) addError(errors, field.name, `Invalid content type: ${String(unknown)}`);
}

function checkCustomFieldData(field: FieldDefinition, value: unknown, { errors }: RelationContext): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    addError(
      errors,
      field.name,
      'Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values.',
    );
  }
}

function genericTargets(definition: ModelDefinition, typeField: string): string[] | undefined {
  return definition.fields.find((f) => f.type === 'generic_fk' && f.typeField === typeField)?.targets;
}

/** A generic relation is written as a (content type, id) pair; the pair must name an existing object. */
async function resolveGenericPairs({ env, view, definition, sent, resolved, errors }: RelationContext): Promise<void> {
  for (const relation of definition.fields.filter((f) => f.type === 'generic_fk' && f.typeField && f.idField)) {
    const typeField = relation.typeField!;
    const idField = relation.idField!;
    if (!Object.hasOwn(sent, typeField) && !Object.hasOwn(sent, idField)) continue;
    if (errors[typeField] || errors[idField]) continue;
    const type = sent[typeField];
    const id = sent[idField];
    if ((type === null || type === undefined) !== (id === null || id === undefined)) {
      addError(errors, type === null || type === undefined ? typeField : idField, 'This field cannot be null.');
      continue;
    }
    if (type === null || type === undefined) continue;
    if (!env.registry.tryGet(String(type)) || !(await view.get(String(type), Number(id)))) {
      if (relation.notFound)
        Object.assign(errors, relation.notFound(contentTypeDisplay(String(type), env.registry), id));
      else addError(errors, idField, `Related object not found using the provided value: ${String(id)}.`);
      continue;
    }
    resolved[typeField] = type;
    resolved[idField] = Number(id);
  }
}

export type { RelationContext } from './CommandEnvironment.js';

import type { ModelRegistry } from '../models/registry.js';
import type { FieldDefinition, FieldErrors, LookupView, ModelDefinition, ModelSettings, StoredObject } from '../models/types.js';
import { addError, hasErrors, ValidationError } from './errors.js';
import { checkUniqueness } from './checkUniqueness.js';
import type { CommandSecrets } from './CommandSecrets.js';
import { decideCustomFieldData } from './customFieldData.js';
import { resolveReference } from './resolveReference.js';
import { storedForm } from './storedForm.js';
import { checkFieldValues, pythonTypeName, writableFields, type WriteMode } from './writeSchema.js';

export interface CommandEnvironment {
  registry: ModelRegistry;
  secrets: CommandSecrets;
  settings: ModelSettings;
}

export interface DecidedObject {
  obj: StoredObject;
  repr: string;
  /** Secrets shown once, in the response to the request that set them (a new token's key). */
  revealed: Record<string, unknown>;
}

/**
 * Decide the stored form of one object from a client's input: field checks from the
 * derived schema, related objects resolved, defaults, secrets protected, the model's
 * own normalisation and rules, uniqueness. Throws a ValidationError in NetBox's shape.
 */
export async function decideObject(
  env: CommandEnvironment,
  view: LookupView,
  definition: ModelDefinition,
  input: unknown,
  previous: StoredObject | null,
  mode: WriteMode,
  id: number,
  now: string,
): Promise<DecidedObject> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new ValidationError({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(input)}.`] });
  }
  const writable = writableFields(definition);
  const sent: Record<string, unknown> = {};
  for (const field of writable) {
    if (Object.hasOwn(input, field.name)) sent[field.name] = coerce(field, (input as Record<string, unknown>)[field.name]);
  }

  const errors = checkFieldValues(definition, sent, mode);
  const resolved = await resolveRelations(env, view, definition, sent, errors);
  if (hasErrors(errors)) throw new ValidationError(errors);

  const obj: StoredObject = previous ? { ...storedForm(previous), id } : { id };
  const revealed: Record<string, unknown> = {};
  for (const field of definition.fields) {
    if (Object.hasOwn(resolved, field.name)) {
      obj[field.name] = resolved[field.name];
    } else if (!previous || (mode === 'put' && field.defaultOnPut)) {
      if (field.default !== undefined && !field.readOnly && !field.internal) obj[field.name] = structuredClone(field.default);
      else if (!previous && isStoredField(field)) obj[field.name] = initialValue(field);
    }
  }
  await protectSecrets(env.secrets, definition, obj, resolved, previous, revealed);
  obj.created = previous?.created ?? now;
  obj.last_updated = now;

  const normalizeErrors = definition.hooks?.normalize?.(obj);
  if (normalizeErrors && hasErrors(normalizeErrors)) throw new ValidationError(normalizeErrors);
  const customField = definition.fields.find((f) => f.type === 'custom_fields');
  if (customField) {
    const sentData = resolved[customField.name] as Record<string, unknown> | undefined;
    await decideCustomFieldData(env.registry, view, definition, obj, sentData, previous, errors);
  }
  if (hasErrors(errors)) throw new ValidationError(errors);

  const ruleErrors = await definition.hooks?.validate?.(obj, view, previous, env.settings);
  if (ruleErrors && hasErrors(ruleErrors)) throw new ValidationError(ruleErrors);
  const uniqueErrors = await checkUniqueness(view, definition, obj);
  if (hasErrors(uniqueErrors)) throw new ValidationError(uniqueErrors);

  const repr = String((await definition.hooks?.display?.(obj, view)) ?? defaultDisplay(definition, obj));
  return { obj, repr, revealed };
}

/** Fields whose value lives in the stored object (not computed on read). */
function isStoredField(field: FieldDefinition): boolean {
  return !['id', 'url', 'display', 'count', 'reverse', 'computed', 'generic_fk'].includes(field.type) && !field.readOnly;
}

function initialValue(field: FieldDefinition): unknown {
  switch (field.type) {
    case 'm2m':
    case 'tags':
      return [];
    case 'custom_fields':
      return {};
    case 'boolean':
      return false;
    case 'string':
      return field.nullable ? null : '';
    default:
      return null;
  }
}

export function defaultDisplay(definition: ModelDefinition, obj: StoredObject): string {
  for (const key of ['name', 'username', 'model', 'cid', 'prefix', 'address', 'slug']) {
    if (typeof obj[key] === 'string' && obj[key]) return obj[key] as string;
  }
  return `${definition.verboseName} ${obj.id}`;
}

/** NetBox coerces a few textual values before matching choices. */
function coerce(field: FieldDefinition, value: unknown): unknown {
  if (field.type === 'choice' && typeof value === 'string') {
    if (/^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
    if (/^-?\d+$/.test(value) && field.choices?.some((c) => typeof c.value === 'number')) return Number(value);
  }
  if (field.type === 'mac_address' && typeof value === 'string') return value.replace(/\s+/g, '');
  return value;
}

async function resolveRelations(
  env: CommandEnvironment,
  view: LookupView,
  definition: ModelDefinition,
  sent: Record<string, unknown>,
  errors: FieldErrors,
): Promise<Record<string, unknown>> {
  const resolved: Record<string, unknown> = { ...sent };
  for (const field of definition.fields) {
    if (!Object.hasOwn(sent, field.name) || errors[field.name]) continue;
    const value = sent[field.name];
    if (field.type === 'fk' && field.target) {
      if (value === null) {
        if (!field.nullable) addError(errors, field.name, 'This field may not be null.');
        continue;
      }
      const result = await resolveReference(env.registry, view, field.target, value);
      if ('error' in result) addError(errors, field.name, result.error);
      else resolved[field.name] = result.id;
    } else if ((field.type === 'm2m' || field.type === 'tags') && field.target) {
      if (!Array.isArray(value)) {
        addError(errors, field.name, value === null ? 'This field may not be null.' : `Expected a list of items but got type "${pythonTypeName(value)}".`);
        continue;
      }
      const ids = new Set<number>();
      const itemErrors: Array<Record<string, never> | string[]> = [];
      let failed = false;
      for (const item of value) {
        const ref = field.type === 'm2m' && typeof item !== 'number' && typeof item !== 'string'
          ? { error: `Incorrect type. Expected pk value, received ${pythonTypeName(item)}.` }
          : await resolveReference(env.registry, view, field.target, item);
        if ('error' in ref) {
          failed = true;
          itemErrors.push([field.type === 'm2m' && /numeric ID/.test(ref.error) ? `Invalid pk "${String(item)}" - object does not exist.` : ref.error]);
        } else {
          ids.add(ref.id);
          itemErrors.push({});
        }
      }
      if (failed) (errors as Record<string, unknown>)[field.name] = itemErrors;
      else resolved[field.name] = [...ids].sort((a, b) => a - b);
    } else if (field.type === 'content_type') {
      if (value === null) {
        if (!field.nullable) addError(errors, field.name, 'This field may not be null.');
        continue;
      }
      const allowed = field.allowedTypes ?? genericTargets(definition, field.name);
      if (typeof value !== 'string' || !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(value)) {
        addError(errors, field.name, "Invalid value. Specify a content type as '<app_label>.<model_name>'.");
      } else if (allowed ? !allowed.includes(value) : !env.registry.tryGet(value)) {
        addError(errors, field.name, `Invalid content type: ${value}`);
      }
    } else if (field.type === 'array' && field.items === 'content_type' && Array.isArray(value)) {
      const unknown = value.find((v) => typeof v !== 'string' || !env.registry.tryGet(v));
      if (unknown !== undefined) addError(errors, field.name, `Invalid content type: ${String(unknown)}`);
    } else if (field.type === 'custom_fields') {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        addError(errors, field.name, 'Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values.');
      }
    }
  }
  await resolveGenericPairs(env, view, definition, sent, resolved, errors);
  return resolved;
}

function genericTargets(definition: ModelDefinition, typeField: string): string[] | undefined {
  return definition.fields.find((f) => f.type === 'generic_fk' && f.typeField === typeField)?.targets;
}

/** A generic relation is written as a (content type, id) pair; the pair must name an existing object. */
async function resolveGenericPairs(
  env: CommandEnvironment,
  view: LookupView,
  definition: ModelDefinition,
  sent: Record<string, unknown>,
  resolved: Record<string, unknown>,
  errors: FieldErrors,
): Promise<void> {
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
      addError(errors, idField, `Related object not found using the provided value: ${String(id)}.`);
      continue;
    }
    resolved[typeField] = type;
    resolved[idField] = Number(id);
  }
}

async function protectSecrets(
  secrets: CommandSecrets,
  definition: ModelDefinition,
  obj: StoredObject,
  resolved: Record<string, unknown>,
  previous: StoredObject | null,
  revealed: Record<string, unknown>,
): Promise<void> {
  for (const field of definition.fields) {
    if (field.secret === 'password') {
      const value = resolved[field.name];
      if (typeof value === 'string' && value !== '') obj[field.name] = await secrets.hashPassword(value);
      else if (!previous) obj[field.name] = null; // no usable password
    } else if (field.secret === 'token_key') {
      const supplied = resolved[field.name];
      delete obj[field.name];
      if (previous && (supplied === undefined || supplied === null || supplied === '')) continue; // keys never rotate on edit
      const key = typeof supplied === 'string' && supplied !== '' ? supplied.toLowerCase() : secrets.generateTokenKey();
      obj.key_digest = secrets.tokenDigest(key);
      obj.key_cipher = secrets.allowTokenRetrieval ? secrets.encryptTokenKey(key) : null;
      obj.key_last6 = key.slice(-6);
      revealed[field.name] = key;
    }
  }
}

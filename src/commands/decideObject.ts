import { hasErrors, ValidationError } from '../errors/requestErrors.js';
import type { FieldDefinition } from '../models/fieldDefinition.js';
import type { LookupView } from '../models/lookupView.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { StoredObject } from '../models/storedObject.js';
import { sharedPatternChecker } from '../models/values/patternChecks.js';
import { checkUniqueness } from './checkUniqueness.js';
import type { CommandEnvironment } from './CommandEnvironment.js';
import type { CommandSecrets } from './CommandSecrets.js';
import { decideCustomFieldData, resolveCustomFieldObjects } from './customFieldData.js';
import { resolveRelations } from './resolveRelations.js';
import { checkFieldValues, pythonTypeName, writableFields, type WriteMode } from './writeSchema.js';

export interface DecidedObject {
  obj: StoredObject;
  repr: string;
  /** Secrets shown once, in the response to the request that set them (a new token's key). */
  revealed: Record<string, unknown>;
}

/** One object to decide: what the client sent for it, and what it is now. */
export interface DecisionRequest {
  /** Committed and staged state, including the request's own earlier changes. */
  view: LookupView;
  definition: ModelDefinition;
  /** The client's input for this object (anything: it is checked). */
  input: unknown;
  /** The object's stored form before this write; null on create. */
  previous: StoredObject | null;
  mode: WriteMode;
  /** The object's id (a freshly allocated one on create). */
  id: number;
  /** The decision time, stamped as last_updated (and created on create). */
  now: string;
  /** Who is writing: the default of fields that name the requesting user. */
  requester?: { id: number } | null;
}

/**
 * Decide the stored form of one object from a client's input: field checks from the
 * derived schema, related objects resolved, defaults, secrets protected, the model's
 * own normalisation and rules, uniqueness. Throws a ValidationError in NetBox's shape.
 */
export async function decideObject(env: CommandEnvironment, request: DecisionRequest): Promise<DecidedObject> {
  const { view, definition, input, previous, mode, id, now, requester } = request;
  const patterns = env.patterns ?? sharedPatternChecker();
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new ValidationError({
      non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(input)}.`],
    });
  }
  const writable = writableFields(definition);
  const sent: Record<string, unknown> = {};
  for (const field of writable) {
    if (Object.hasOwn(input, field.name))
      sent[field.name] = coerce(field, (input as Record<string, unknown>)[field.name]);
  }

  const errors = checkFieldValues(definition, sent, mode);
  const resolved = await resolveRelations(env, view, definition, sent, errors);
  const { customField, secretFields } = fieldRolesOf(definition);
  if (customField && Object.hasOwn(resolved, customField.name)) {
    resolved[customField.name] = await resolveCustomFieldObjects(
      env.registry,
      view,
      definition,
      resolved[customField.name] as Record<string, unknown>,
      errors,
    );
  }
  if (hasErrors(errors)) throw new ValidationError(errors);

  // `previous` is a stored form already (every caller reads it through storedForm): copied, not filtered again.
  const obj: StoredObject = previous ? { ...previous, id } : { id };
  const revealed: Record<string, unknown> = {};
  for (const field of definition.fields) {
    if (Object.hasOwn(resolved, field.name)) {
      obj[field.name] = resolved[field.name];
    } else if (!previous || (mode === 'put' && field.defaultOnPut)) {
      if (field.defaultIsRequester) obj[field.name] = requester?.id ?? null;
      else if (field.default !== undefined && !field.readOnly && !field.internal)
        obj[field.name] = copyOfDefault(field.default);
      else if (!previous && isStoredField(field)) obj[field.name] = initialValue(field);
    }
  }
  if (secretFields.length) await protectSecrets(env.secrets, secretFields, obj, resolved, previous, revealed);
  obj.created = previous?.created ?? now;
  obj.last_updated = now;

  const normalizeErrors = definition.hooks?.normalize?.(obj, now);
  if (normalizeErrors && hasErrors(normalizeErrors)) throw new ValidationError(normalizeErrors);
  if (customField) {
    const sentData = resolved[customField.name] as Record<string, unknown> | undefined;
    await decideCustomFieldData(view, definition, obj, sentData, previous, errors, patterns);
  }
  if (hasErrors(errors)) throw new ValidationError(errors);

  const written = new Set(Object.keys(sent));
  const ruleErrors = await definition.hooks?.validate?.(obj, view, previous, {
    settings: env.settings,
    written,
    models: env.registry,
    patterns,
  });
  if (ruleErrors && hasErrors(ruleErrors)) throw new ValidationError(ruleErrors);
  const uniqueErrors = await checkUniqueness(view, definition, obj, previous);
  if (hasErrors(uniqueErrors)) throw new ValidationError(uniqueErrors);
  await definition.hooks?.beforeSave?.(obj, view, { previous, written });

  return { obj, repr: await displayOf(definition, obj, view), revealed };
}

/** The object's display: its model's display hook, or the default from its name. */
export async function displayOf(definition: ModelDefinition, obj: StoredObject, view: LookupView): Promise<string> {
  return String((await definition.hooks?.display?.(obj, view)) ?? defaultDisplay(definition, obj));
}

/**
 * A field's default for one object: its own copy of an array or object (the object may
 * be changed before it is stored), the value itself otherwise. Most defaults are '' or
 * null, and structuredClone of them (and of {}) cost more than the rest of a bulk item's defaults.
 */
function copyOfDefault(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  // The usual object defaults, an empty list or dictionary (custom field data), made afresh.
  if (Array.isArray(value)) return value.length === 0 ? [] : structuredClone(value);
  return Object.getPrototypeOf(value) === Object.prototype && isEmpty(value) ? {} : structuredClone(value);
}

function isEmpty(value: object): boolean {
  for (const _key in value) return false;
  return true;
}

/** Field types whose value is not stored (computed on read). */
const UNSTORED_TYPES: ReadonlySet<string> = new Set([
  'id',
  'url',
  'display',
  'count',
  'reverse',
  'computed',
  'generic_fk',
]);

/** Fields whose value lives in the stored object (not computed on read). */
function isStoredField(field: FieldDefinition): boolean {
  return !UNSTORED_TYPES.has(field.type) && !field.readOnly;
}

/** The fields of a model a decision treats apart: looked up once per model, not per object of a bulk request. */
interface FieldRoles {
  customField: FieldDefinition | undefined;
  secretFields: FieldDefinition[];
}

const fieldRoles = new WeakMap<ModelDefinition, FieldRoles>();

function fieldRolesOf(definition: ModelDefinition): FieldRoles {
  let roles = fieldRoles.get(definition);
  if (!roles) {
    roles = {
      customField: definition.fields.find((f) => f.type === 'custom_fields'),
      secretFields: definition.fields.filter((f) => f.secret !== undefined),
    };
    fieldRoles.set(definition, roles);
  }
  return roles;
}

function initialValue(field: FieldDefinition): unknown {
  switch (field.type) {
    case 'm2m':
    case 'tags':
    case 'generic_list':
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

async function protectSecrets(
  secrets: CommandSecrets,
  secretFields: FieldDefinition[],
  obj: StoredObject,
  resolved: Record<string, unknown>,
  previous: StoredObject | null,
  revealed: Record<string, unknown>,
): Promise<void> {
  for (const field of secretFields) {
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
    } else if (field.secret === 'sealed') {
      const supplied = resolved[field.name];
      delete obj[field.name];
      if (typeof supplied === 'string')
        obj[`${field.name}_sealed`] = supplied === '' ? null : secrets.sealSecret(supplied);
      else if (!previous) obj[`${field.name}_sealed`] = null;
    }
  }
}

export type { CommandEnvironment } from './CommandEnvironment.js';

import type { ErrorObject, ValidateFunction } from 'ajv';

import type { FieldErrors } from '../errors/fieldErrors.js';
import { addError } from '../errors/requestErrors.js';
import { createAjv } from '../events/createAjv.js';
import type { FieldDefinition } from '../models/fieldDefinition.js';
import type { ModelDefinition } from '../models/modelDefinition.js';

/** A slug without a pattern of its own: letters, digits, hyphens and underscores. */
const SLUG_PATTERN = '^[-a-zA-Z0-9_]+$';

/** create/put: required fields must be present; patch: only what was sent is checked. */
export type WriteMode = 'create' | 'put' | 'patch';

/** Field types whose values are checked by reference resolution or model hooks, not by the schema. */
const RESOLVED_TYPES = new Set(['fk', 'm2m', 'tags', 'content_type', 'custom_fields', 'generic_list']);

const writable = new WeakMap<ModelDefinition, FieldDefinition[]>();

/** The fields a client may write (worked out once per model: every write asks). */
export function writableFields(definition: ModelDefinition): FieldDefinition[] {
  let fields = writable.get(definition);
  if (!fields) {
    fields = definition.fields.filter(
      (f) =>
        !f.readOnly &&
        !f.internal &&
        !['id', 'url', 'display', 'count', 'reverse', 'computed', 'generic_fk'].includes(f.type),
    );
    writable.set(definition, fields);
  }
  return fields;
}

function valueSchema(field: FieldDefinition): Record<string, unknown> {
  switch (field.type) {
    case 'string':
    case 'mac_address':
    case 'wwn':
    case 'cidr':
    case 'ip_address': {
      const s: Record<string, unknown> = { type: 'string' };
      if (field.maxLength !== undefined) s.maxLength = field.maxLength;
      const min = field.minLength ?? (field.blank ? 0 : 1);
      if (min > 0) s.minLength = min;
      const pattern = field.pattern ?? (field.format === 'slug' ? SLUG_PATTERN : undefined);
      // A field that may be blank accepts '' whatever its pattern (a port without a colour).
      if (pattern) s.pattern = min === 0 ? `^$|${pattern}` : pattern;
      if (field.format === 'email' || field.format === 'uri') {
        // A blank value is no address at all, so the format applies only to non-empty text.
        if (min === 0) return { ...s, if: { minLength: 1 }, then: { format: field.format } };
        s.format = field.format;
      }
      return s;
    }
    case 'integer': {
      const s: Record<string, unknown> = { type: 'integer' };
      if (field.min !== undefined) s.minimum = field.min;
      if (field.max !== undefined) s.maximum = field.max;
      return s;
    }
    case 'decimal': {
      const s: Record<string, unknown> = { type: 'number' };
      if (field.min !== undefined) s.minimum = field.min;
      if (field.max !== undefined) s.maximum = field.max;
      return s;
    }
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'choice': {
      const values: unknown[] = (field.choices ?? []).map((c) => c.value);
      if (field.emptyAsNull) values.push('');
      return { enum: values };
    }
    case 'array': {
      const items = field.items === 'integer' ? { type: 'integer' } : field.items === 'json' ? {} : { type: 'string' };
      return { type: 'array', items };
    }
    case 'json':
      // any JSON value, but null only where the field is nullable
      return { not: { type: 'null' } };
    default:
      return {};
  }
}

function fieldSchema(field: FieldDefinition): Record<string, unknown> {
  if (RESOLVED_TYPES.has(field.type)) return {};
  const schema = valueSchema(field);
  const nullable = field.nullable || (field.type === 'choice' && field.emptyAsNull);
  if (!nullable) return schema;
  return { anyOf: [{ type: 'null' }, schema] };
}

export function buildWriteSchema(definition: ModelDefinition, mode: WriteMode): Record<string, unknown> {
  const fields = writableFields(definition);
  const properties = Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f)]));
  const required = mode === 'patch' ? [] : fields.filter((f) => f.required).map((f) => f.name);
  return { type: 'object', properties, required };
}

const ajv = createAjv({ allErrors: true });
/** By definition object, not model key: a derived definition (an import's) may differ in what it requires. */
const compiled = new WeakMap<ModelDefinition, Map<string, ValidateFunction>>();

function validatorFor(definition: ModelDefinition, mode: WriteMode): ValidateFunction {
  const key = mode === 'patch' ? 'patch' : 'full';
  let byMode = compiled.get(definition);
  if (!byMode) compiled.set(definition, (byMode = new Map()));
  let validate = byMode.get(key);
  if (!validate) byMode.set(key, (validate = ajv.compile(buildWriteSchema(definition, mode))));
  return validate;
}

/** Field types whose values are text (or lists of text) a client writes as it likes. */
const TEXT_TYPES = new Set(['string', 'mac_address', 'wwn', 'cidr', 'ip_address', 'array']);
export const NUL_MESSAGE = 'Null characters are not allowed.';

/**
 * Text holding a NUL character is refused in every field, as Django REST framework's
 * ProhibitNullCharactersValidator does on every CharField (NetBox's database could not
 * store it). Checked here rather than in the schema, which the OpenAPI document shows.
 */
function refuseNulCharacters(definition: ModelDefinition, input: Record<string, unknown>, errors: FieldErrors): void {
  for (const name of textFields(definition)) {
    const value = input[name];
    const nul = typeof value === 'string' ? value.includes('\u0000') : Array.isArray(value) && value.some(holdsNul);
    if (nul) addError(errors, name, NUL_MESSAGE);
  }
}

const holdsNul = (text: unknown) => typeof text === 'string' && text.includes('\u0000');

const textFieldNames = new WeakMap<ModelDefinition, string[]>();

/** The writable fields whose values are text (worked out once per model: every write asks). */
function textFields(definition: ModelDefinition): string[] {
  let names = textFieldNames.get(definition);
  if (!names) {
    names = writableFields(definition)
      .filter((f) => TEXT_TYPES.has(f.type))
      .map((f) => f.name);
    textFieldNames.set(definition, names);
  }
  return names;
}

/** Check field values against the derived schema; messages in Django REST framework's words. */
export function checkFieldValues(
  definition: ModelDefinition,
  input: Record<string, unknown>,
  mode: WriteMode,
): FieldErrors {
  const validate = validatorFor(definition, mode);
  const errors: FieldErrors = {};
  refuseNulCharacters(definition, input, errors);
  if (validate(input)) return errors;
  const byName = new Map(definition.fields.map((f) => [f.name, f]));
  for (const error of validate.errors ?? []) {
    // A nullable field's value fails the null branch too: the value's own branch says why.
    if (error.schemaPath.endsWith('/anyOf/0/type') && input[error.instancePath.split('/')[1]] !== null) continue;
    const name = error.keyword === 'required' ? String(error.params.missingProperty) : error.instancePath.split('/')[1];
    if (!name || errors[name]) continue; // one message per field, the first is the most specific
    const field = byName.get(name);
    if (!field) continue;
    addError(errors, name, messageFor(error, field, input[name]));
  }
  return errors;
}

function messageFor(error: ErrorObject, field: FieldDefinition, value: unknown): string {
  if (error.keyword === 'required') return 'This field is required.';
  // A bare-value choice is a plain DRF choice field: its messages quote the value and know no blank.
  const plainChoice = field.type === 'choice' && field.choiceRender === 'plain';
  if (value === null)
    return field.type === 'choice' && !plainChoice ? 'This field may not be blank.' : 'This field may not be null.';
  switch (error.keyword) {
    case 'maxLength':
      return `Ensure this field has no more than ${error.params.limit} characters.`;
    case 'minLength':
      return value === ''
        ? 'This field may not be blank.'
        : `Ensure this field has at least ${error.params.limit} characters.`;
    case 'maximum':
      return `Ensure this value is less than or equal to ${error.params.limit}.`;
    case 'minimum':
      return `Ensure this value is greater than or equal to ${error.params.limit}.`;
    case 'enum':
      if (plainChoice && typeof value !== 'object') return `"${String(value)}" is not a valid choice.`;
      if (value === '') return 'This field may not be blank.';
      if (typeof value === 'object')
        return 'Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.';
      return `${String(value)} is not a valid choice.`;
    case 'pattern':
      if (field.patternMessage) return field.patternMessage;
      return field.format === 'slug'
        ? 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'
        : 'Enter a valid value.';
    case 'format':
      if (field.type === 'date') return 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.';
      if (field.type === 'datetime')
        return 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';
      if (field.format === 'email') return 'Enter a valid email address.';
      return 'Enter a valid URL.';
    default:
      return typeMessage(field, value);
  }
}

function typeMessage(field: FieldDefinition, value: unknown): string {
  switch (field.type) {
    case 'integer':
      return 'A valid integer is required.';
    case 'decimal':
      return 'A valid number is required.';
    case 'boolean':
      return 'Must be a valid boolean.';
    case 'date':
      return 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.';
    case 'datetime':
      return 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';
    case 'array':
      return Array.isArray(value)
        ? 'Invalid list item.'
        : `Expected a list of items but got type "${pythonTypeName(value)}".`;
    default:
      return 'Not a valid string.';
  }
}

/** How Django REST framework names a JSON value's type in its messages. */
export function pythonTypeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    default:
      return 'dict';
  }
}

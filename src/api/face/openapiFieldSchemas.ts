/**
 * The schema of one field as the serializer renders it: its value (by field type),
 * then its description, read-only flag and nullability.
 */
import type { FieldDefinition, FieldType } from '../../models/fieldDefinition.js';
import { nullable, type Schema } from './openapiFragments.js';
import { fieldLabel } from './options.js';

/** The nested form of a related object (a component reference). */
export type NestedRef = (target: string | undefined) => Schema;

/** Field types whose schema is always the same. */
const FIXED_SCHEMAS: Partial<Record<FieldType, Schema>> = {
  id: { type: 'integer' },
  integer: { type: 'integer' },
  count: { type: 'integer' },
  url: { type: 'string', format: 'uri' },
  display: { type: 'string' },
  decimal: { type: 'number' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  datetime: { type: 'string', format: 'date-time' },
  json: {},
  custom_fields: { type: 'object', additionalProperties: true },
};

/** Field types the server computes: never written by a client. */
const READ_ONLY_TYPES = new Set<FieldType>(['id', 'url', 'display', 'count', 'reverse', 'computed', 'generic_fk']);

/** '<app>.<model>' strings: the accepted ones when the field names them, else any content type. */
export function contentTypeSchema(field: FieldDefinition): Schema {
  if (field.allowedTypes?.length) return { type: 'string', enum: field.allowedTypes };
  return { type: 'string', pattern: '^[a-z][a-z0-9_]*\\.[a-z][a-z0-9_]*$' };
}

export function arrayItems(field: FieldDefinition): Schema {
  switch (field.items) {
    case 'integer':
      return { type: 'integer' };
    case 'json':
      return {};
    case 'content_type':
      return contentTypeSchema({ ...field, allowedTypes: undefined });
    default:
      return { type: 'string' };
  }
}

/** The schema of a field as the serializer renders it (`bare`: brief/nested forms render choices bare). */
export function fieldReadSchema(field: FieldDefinition, bare: boolean, nestedRef: NestedRef): Schema {
  let schema = valueSchema(field, bare, nestedRef);
  if (field.help) schema = { ...schema, description: field.help };
  if (field.readOnly || READ_ONLY_TYPES.has(field.type)) schema = { ...schema, readOnly: true };
  if (mayBeNull(field) && Object.keys(schema).some((k) => k !== 'description' && k !== 'readOnly'))
    schema = withNull(schema);
  return { title: fieldLabel(field), ...schema };
}

function valueSchema(field: FieldDefinition, bare: boolean, nestedRef: NestedRef): Schema {
  const fixed = FIXED_SCHEMAS[field.type];
  if (fixed) return { ...fixed };
  switch (field.type) {
    case 'string':
      return field.image ? { type: 'string', format: 'uri' } : stringSchema(field);
    case 'cidr':
    case 'ip_address':
    case 'mac_address':
    case 'wwn':
      return stringSchema(field);
    case 'array':
      return { type: 'array', items: arrayItems(field) };
    case 'choice':
      return choiceSchema(field, bare);
    case 'fk':
      if (bare && field.briefAttribute) return { type: field.briefAttribute === 'id' ? 'integer' : 'string' };
      return field.representation === 'id' ? { type: 'integer' } : nestedRef(field.target);
    case 'm2m':
    case 'tags':
    case 'reverse':
      if (field.type === 'reverse' && field.oneToOne) return nestedRef(field.target);
      if (field.representation === 'slug') return { type: 'array', items: { type: 'string' } };
      return { type: 'array', items: nestedRef(field.target) };
    case 'content_type':
      return contentTypeSchema(field);
    case 'generic_fk':
      return { anyOf: (field.targets ?? []).map((t) => nestedRef(t)) };
    case 'generic_list':
      return {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            object_type: { type: 'string' },
            object_id: { type: 'integer' },
            object: { anyOf: (field.targets ?? []).map((t) => nestedRef(t)), readOnly: true },
          },
          required: ['object_type', 'object_id'],
        },
      };
    case 'computed':
      if (field.references) {
        // Which models a reference may name is known only to its compute hook; `targets` says it where declared.
        const one: Schema = field.targets?.length
          ? { anyOf: field.targets.map((t) => nestedRef(t)) }
          : { type: 'object' };
        return field.references === 'many' ? { type: 'array', items: one } : one;
      }
      return computedSchema(field);
    default:
      return {};
  }
}

function stringSchema(field: FieldDefinition): Schema {
  const schema: Schema = { type: 'string' };
  if (field.maxLength !== undefined) schema.maxLength = field.maxLength;
  if (field.format === 'email') schema.format = 'email';
  if (field.format === 'uri') schema.format = 'uri';
  return schema;
}

function choiceSchema(field: FieldDefinition, bare: boolean): Schema {
  const values = (field.choices ?? []).map((c) => c.value);
  const labels = [...new Set((field.choices ?? []).map((c) => c.label))];
  const value = values.length ? { enum: values } : {};
  if (bare || field.choiceRender === 'plain') return value;
  return {
    type: 'object',
    properties: { value, label: labels.length ? { type: 'string', enum: labels } : { type: 'string' } },
    required: ['value', 'label'],
  };
}

function computedSchema(field: FieldDefinition): Schema {
  const value = field.value;
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (typeof value === 'string') return { type: 'string' };
  if (Array.isArray(value)) return { type: 'array', items: {} };
  if (value && typeof value === 'object') return { type: 'object' };
  return {};
}

/**
 * Whether the rendered value can be null: declared nullable, an optional relation, a
 * choice that is optional without a default or may be empty (rendered as null), a generic
 * relation; never a JSON field (null is then a JSON value like any other).
 */
function mayBeNull(field: FieldDefinition): boolean {
  const declared = field.nullable === true;
  switch (field.type) {
    case 'json':
      return false;
    case 'choice': {
      // an empty value renders as null unless the field says otherwise (an IP address's role)
      const mayBeEmpty = field.emptyAsNull === true || field.blank === true || field.default === '';
      return (
        declared ||
        (mayBeEmpty && field.emptyAsNull !== false) ||
        (!field.required && (field.default === undefined || field.default === null))
      );
    }
    case 'fk':
      return declared || !field.required;
    case 'generic_fk':
      return true;
    default:
      return declared;
  }
}

/** `anyOf [schema, null]`, keeping the description and read-only flag outside. */
function withNull(schema: Schema): Schema {
  const { description, readOnly, ...rest } = schema;
  const out: Schema = { ...nullable(rest) };
  if (description !== undefined) out.description = description;
  if (readOnly !== undefined) out.readOnly = readOnly;
  return out;
}

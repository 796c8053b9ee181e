/**
 * Request bodies: the ajv write schemas of the write side (POST/PUT, and PATCH where
 * nothing is required), with relations, content types, arrays and JSON spelled out for
 * readers of the document.
 */
import { buildWriteSchema, writableFields } from '../../commands/writeSchema.js';
import type { FieldDefinition } from '../../models/fieldDefinition.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import { arrayItems, contentTypeSchema } from './openapiFieldSchemas.js';
import { nullable, type Schema } from './openapiFragments.js';
import { fieldLabel } from './options.js';

/** The body of a create (or replace) request, or of a PATCH when `patch`. */
export function writeBodySchema(definition: ModelDefinition, patch: boolean): Schema {
  const base = buildWriteSchema(definition, patch ? 'patch' : 'create') as {
    properties: Record<string, Schema>;
    required: string[];
  };
  const byName = new Map(writableFields(definition).map((f) => [f.name, f]));
  const properties: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(base.properties))
    properties[name] = writeProperty(byName.get(name)!, schema);
  const body: Schema = {
    type: 'object',
    description: patch
      ? `The fields of a ${definition.verboseName} to change (PATCH).`
      : `A ${definition.verboseName} as written by POST and PUT (related objects by id or identifying attributes).`,
    properties,
  };
  if (base.required.length) body.required = base.required;
  return body;
}

/** One property of a request body: the validator's schema, or a readable one for the types it checks in code. */
function writeProperty(field: FieldDefinition, validated: Schema): Schema {
  let property: Schema = validated;
  if (field.type === 'fk' || field.type === 'm2m' || field.type === 'tags') property = writeRelation(field);
  else if (field.type === 'content_type') {
    const types = contentTypeSchema(field);
    property = field.nullable ? nullable(types) : types;
  } else if (field.type === 'array') property = { type: 'array', items: arrayItems(field) };
  else if (field.type === 'custom_fields') property = { type: 'object', additionalProperties: true };
  else if (field.type === 'json') property = {};
  property = { title: fieldLabel(field), ...property };
  if (field.help) property.description = field.help;
  if (field.writeOnly) property.writeOnly = true;
  if (field.default !== undefined && field.default !== null && typeof field.default !== 'object')
    property.default = field.default;
  return property;
}

/** Relations on write: an id, or attributes that identify exactly one object. */
function writeRelation(field: FieldDefinition): Schema {
  if (field.representation === 'slug')
    return { type: 'array', items: { type: 'string', description: `slug of the ${field.target ?? 'related'} object` } };
  const one: Schema = {
    anyOf: [
      { type: 'integer', description: `id of the ${field.target ?? 'related'} object` },
      { type: 'object', additionalProperties: true, description: 'attributes that identify exactly one object' },
    ],
  };
  if (field.type === 'fk') return field.nullable ? { anyOf: [...(one.anyOf as Schema[]), { type: 'null' }] } : one;
  return { type: 'array', items: one };
}

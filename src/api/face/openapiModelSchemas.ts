/**
 * The components of one model: its complete, brief and nested forms, its list page and,
 * when it can be written, its request bodies.
 */
import type { FieldDefinition } from '../../models/fieldDefinition.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import { fieldReadSchema, type NestedRef } from './openapiFieldSchemas.js';
import { pageLinkSchemas, ref, type Schema } from './openapiFragments.js';
import { writeBodySchema } from './openapiWriteSchemas.js';

/** The component schemas of a model named `name`, in document order. */
export function modelSchemas(definition: ModelDefinition, name: string, nestedRef: NestedRef): Record<string, Schema> {
  const rendered = definition.fields.filter((f) => !f.internal && !f.writeOnly);
  // Brief and nested forms list their fields in the brief's order, as the serializer renders them.
  const brief = definition.brief
    .map((name) => rendered.find((f) => f.name === name))
    .filter((f): f is FieldDefinition => f !== undefined);
  const schemas: Record<string, Schema> = {
    [name]: objectSchema(rendered, false, `A ${definition.verboseName} (${definition.key}), complete form.`, nestedRef),
    [`Brief${name}`]: objectSchema(brief, true, `A ${definition.verboseName} in brief form (?brief=1).`, nestedRef),
    [`Nested${name}`]: objectSchema(
      brief.filter((f) => !f.annotated),
      true,
      `A ${definition.verboseName} as nested in other objects.`,
      nestedRef,
    ),
    [`Paginated${name}List`]: {
      type: 'object',
      description: `A page of ${definition.verboseNamePlural}.`,
      properties: {
        count: { type: 'integer', description: 'All objects matching the query.' },
        ...pageLinkSchemas(),
        results: { type: 'array', items: { anyOf: [ref(name), ref(`Brief${name}`)] } },
      },
      required: ['count', 'next', 'previous', 'results'],
    },
  };
  if (!definition.readOnly) {
    schemas[`Writable${name}`] = writeBodySchema(definition, false);
    schemas[`PatchedWritable${name}`] = writeBodySchema(definition, true);
  }
  return schemas;
}

function objectSchema(fields: FieldDefinition[], bare: boolean, description: string, nestedRef: NestedRef): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const field of fields) {
    // a brief form may show a field under another name (an FHRP assignment's group as group_id)
    const key = bare && field.briefName ? field.briefName : field.name;
    properties[key] = fieldReadSchema(field, bare, nestedRef);
    // Annotated counts are missing from create responses; a token's key only shows when retrievable.
    if (!field.annotated && !field.secret) required.push(key);
  }
  return { type: 'object', description, properties, required };
}

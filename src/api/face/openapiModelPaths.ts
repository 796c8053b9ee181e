/**
 * The paths of one model: the list (GET with every filter; POST, bulk PUT/PATCH/DELETE
 * when writable) and the detail (GET; PUT, PATCH, DELETE when writable).
 */
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import { type DescribesFilters, modelFilters } from './filters.js';
import { errorResponses, json, operationPrefix, ref, type Schema } from './openapiFragments.js';

/** What a model's operations are named and described by. */
interface Subject {
  /** The model's component name ('DeviceType'). */
  name: string;
  prefix: string;
  tags: string[];
  one: string;
  many: string;
}

/** The list and detail path items of the model whose components are named `name`. */
export function modelPaths(
  registry: ModelRegistry,
  definition: ModelDefinition,
  name: string,
  compiler: DescribesFilters | undefined,
): Record<string, Schema> {
  const subject: Subject = {
    name,
    prefix: operationPrefix(definition),
    tags: [definition.app],
    one: definition.verboseName,
    many: definition.verboseNamePlural,
  };
  const writable = !definition.readOnly;
  return {
    [`/api/${definition.app}/${definition.path}/`]: {
      ...listRead(subject, listParameters(registry, definition, compiler)),
      ...(writable ? listWrites(subject) : {}),
    },
    [`/api/${definition.app}/${definition.path}/{id}/`]: {
      ...detailRead(subject),
      ...(writable ? detailWrites(subject) : {}),
    },
  };
}

function listRead({ name, prefix, tags, many }: Subject, parameters: Schema[]): Schema {
  return {
    get: {
      operationId: `${prefix}_list`,
      summary: `List ${many}`,
      description:
        'Filters combine with AND; a repeated filter ORs its values (tags: all must match). ' +
        'Custom fields filter as cf_<name> (with the lookups of their type).',
      tags,
      parameters,
      responses: {
        200: { description: `A page of ${many}`, content: json(ref(`Paginated${name}List`)) },
        ...errorResponses([400, 403]),
      },
    },
  };
}

function detailRead({ name, prefix, tags, one }: Subject): Schema {
  return {
    parameters: [{ $ref: '#/components/parameters/id' }],
    get: {
      operationId: `${prefix}_read`,
      summary: `Read a ${one}`,
      tags,
      parameters: [
        { $ref: '#/components/parameters/brief' },
        { $ref: '#/components/parameters/exclude' },
        { $ref: '#/components/parameters/fields' },
      ],
      responses: {
        200: { description: `The ${one}`, content: json({ anyOf: [ref(name), ref(`Brief${name}`)] }) },
        ...errorResponses([403, 404]),
      },
    },
  };
}

/** Create (one or several), and bulk replace, change and delete: each all or none. */
function listWrites({ name, prefix, tags, one, many }: Subject): Schema {
  const writable = ref(`Writable${name}`);
  const patched = ref(`PatchedWritable${name}`);
  const bulkItem = (schema: Schema) => ({ type: 'array', items: { allOf: [schema, ref('BulkItemId')] } });
  const array = { type: 'array', items: ref(name) };
  return {
    post: {
      operationId: `${prefix}_create`,
      summary: `Create one ${one} (an object) or several (an array, all or none)`,
      tags,
      requestBody: { required: true, content: json({ anyOf: [writable, { type: 'array', items: writable }] }) },
      responses: {
        201: { description: `The created ${one} or ${many}`, content: json({ anyOf: [ref(name), array] }) },
        400: {
          description: 'Invalid input',
          content: json({ anyOf: [ref('ValidationError'), ref('BulkValidationError')] }),
        },
        ...errorResponses([403, 413, 415]),
      },
    },
    put: {
      operationId: `${prefix}_bulk_update`,
      summary: `Replace several ${many} (all or none)`,
      tags,
      requestBody: { required: true, content: json(bulkItem(writable)) },
      responses: {
        200: { description: `The updated ${many}`, content: json(array) },
        ...errorResponses([400, 403, 404, 412, 413, 415]),
      },
    },
    patch: {
      operationId: `${prefix}_bulk_partial_update`,
      summary: `Change several ${many} (all or none)`,
      tags,
      requestBody: { required: true, content: json(bulkItem(patched)) },
      responses: {
        200: { description: `The updated ${many}`, content: json(array) },
        ...errorResponses([400, 403, 404, 412, 413, 415]),
      },
    },
    delete: {
      operationId: `${prefix}_bulk_delete`,
      summary: `Delete several ${many} (all or none)`,
      tags,
      requestBody: { required: true, content: json({ type: 'array', items: ref('BulkItemId') }) },
      responses: { 204: { description: 'Deleted' }, ...errorResponses([400, 403, 404, 409, 412, 415]) },
    },
  };
}

function detailWrites({ name, prefix, tags, one }: Subject): Schema {
  return {
    put: {
      operationId: `${prefix}_update`,
      summary: `Replace a ${one} (every required field)`,
      tags,
      requestBody: { required: true, content: json(ref(`Writable${name}`)) },
      responses: {
        200: { description: `The updated ${one}`, content: json(ref(name)) },
        ...errorResponses([400, 403, 404, 412, 413, 415]),
      },
    },
    patch: {
      operationId: `${prefix}_partial_update`,
      summary: `Change fields of a ${one}`,
      tags,
      requestBody: { required: true, content: json(ref(`PatchedWritable${name}`)) },
      responses: {
        200: { description: `The updated ${one}`, content: json(ref(name)) },
        ...errorResponses([400, 403, 404, 412, 413, 415]),
      },
    },
    delete: {
      operationId: `${prefix}_delete`,
      summary: `Delete a ${one}`,
      tags,
      responses: { 204: { description: 'Deleted' }, ...errorResponses([403, 404, 409, 412]) },
    },
  };
}

/** Paging, ordering and form parameters, then one parameter per filter (and lookup) of the model. */
function listParameters(
  registry: ModelRegistry,
  definition: ModelDefinition,
  compiler: DescribesFilters | undefined,
): Schema[] {
  const ordering =
    definition.orderingFields ?? definition.fields.filter((f) => !f.internal && !f.writeOnly).map((f) => f.name);
  const params: Schema[] = [
    { $ref: '#/components/parameters/limit' },
    { $ref: '#/components/parameters/offset' },
    {
      name: 'ordering',
      in: 'query',
      description: `Comma-separated fields to order by, '-' for descending. Allowed: ${ordering.join(', ')}.`,
      schema: { type: 'string' },
    },
    { $ref: '#/components/parameters/brief' },
    { $ref: '#/components/parameters/exclude' },
    { $ref: '#/components/parameters/fields' },
  ];
  return [...params, ...filterParameters(registry, definition, compiler)];
}

/** One query parameter per filter (and lookup) of the model, as its list's filter set has them. */
export function filterParameters(
  registry: ModelRegistry,
  definition: ModelDefinition,
  compiler: DescribesFilters | undefined,
): Schema[] {
  const params: Schema[] = [];
  for (const filter of modelFilters(registry, definition, compiler)) {
    if (['limit', 'offset', 'ordering', 'brief', 'exclude', 'fields'].includes(filter.name)) continue;
    params.push({
      name: filter.name,
      in: 'query',
      description: filter.description,
      schema: filter.multi ? { type: 'array', items: filter.schema } : filter.schema,
      ...(filter.multi ? { style: 'form', explode: true } : {}),
    });
  }
  return params;
}

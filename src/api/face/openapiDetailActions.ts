/**
 * The detail sub-resources models declare (`detailActions`: a prefix's available-ips and
 * available-prefixes, a VLAN group's available-vlans): GET lists the free space, POST
 * hands it out to new objects. Everything here comes from the declaration: the path and
 * the created model from the action, the listing entry and the request from its
 * allocator's `shape`, the request's fields from the created model's write schema.
 */
import type { AllocatorShape, DetailAction, ListingValue } from '../../models/detailEndpoints.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import type { NestedRef } from './openapiFieldSchemas.js';
import { errorResponses, json, nullable, operationPrefix, ref, type Schema } from './openapiFragments.js';
import { writeBodySchema } from './openapiWriteSchemas.js';

/** The component names of one action: `PrefixAvailableIpsEntry`, `PrefixAvailableIpsRequest`. */
function componentBase(parentName: string, action: DetailAction): string {
  return parentName + action.path.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
}

/** The schemas of the listing entry and of one request of every action of `parent`. */
export function detailActionSchemas(
  registry: ModelRegistry,
  parent: ModelDefinition,
  names: Map<string, string>,
  nestedRef: NestedRef,
): Record<string, Schema> {
  const schemas: Record<string, Schema> = {};
  for (const action of parent.detailActions ?? []) {
    const created = registry.get(action.creates);
    const base = componentBase(names.get(parent.key)!, action);
    schemas[`${base}Entry`] = entrySchema(
      action.allocator.shape,
      `Free space of a ${parent.verboseName}: one entry of ${action.path}.`,
      nestedRef,
    );
    schemas[`${base}Request`] = requestSchema(created, action.allocator.shape);
  }
  return schemas;
}

function entrySchema(shape: AllocatorShape, description: string, nestedRef: NestedRef): Schema {
  const properties = Object.fromEntries(
    Object.entries(shape.entry).map(([key, value]) => [key, { ...valueSchema(value, nestedRef), readOnly: true }]),
  );
  return { type: 'object', description, properties, required: Object.keys(shape.entry) };
}

function valueSchema(value: ListingValue, nestedRef: NestedRef): Schema {
  if (value === 'integer') return { type: 'integer' };
  if (value === 'string') return { type: 'string' };
  return value.nullable ? nullable(nestedRef(value.nested)) : nestedRef(value.nested);
}

/** The created model's write schema narrowed to what a request may say, plus the allocator's own values. */
function requestSchema(created: ModelDefinition, shape: AllocatorShape): Schema {
  const allowed = created.fields.filter(
    (f) => (shape.fields ? shape.fields.includes(f.name) : true) && !shape.assigned.includes(f.name),
  );
  const schema = writeBodySchema({ ...created, fields: [...(shape.extra ?? []), ...allowed] }, false);
  return {
    ...schema,
    description:
      `One ${created.verboseName} to create in the free space; the server chooses ${shape.assigned.join(' and ')}` +
      `${shape.assigned.length ? ', overriding any value given' : ''}.`,
  };
}

/** The path items of every action of `parent`: /api/<app>/<path>/{id}/<action>/. */
export function detailActionPaths(
  registry: ModelRegistry,
  parent: ModelDefinition,
  names: Map<string, string>,
): Record<string, Schema> {
  const paths: Record<string, Schema> = {};
  for (const action of parent.detailActions ?? []) {
    const created = registry.get(action.creates);
    const createdName = names.get(created.key)!;
    const base = componentBase(names.get(parent.key)!, action);
    const operation = `${operationPrefix(parent)}_${action.path.replace(/-/g, '_')}`;
    const tags = [parent.app];
    const request = ref(`${base}Request`);
    const { shape } = action.allocator;
    paths[`/api/${parent.app}/${parent.path}/{id}/${action.path}/`] = {
      parameters: [{ $ref: '#/components/parameters/id' }],
      get: {
        operationId: `${operation}_list`,
        summary: `List the free space of a ${parent.verboseName} for new ${created.verboseNamePlural}`,
        description:
          'A plain array, lowest first, not paginated' +
          (shape.limited ? ': at most `limit` entries.' : ', always whole.') +
          ` Needs permission to view ${created.verboseNamePlural}.`,
        tags,
        parameters: shape.limited ? [{ $ref: '#/components/parameters/listingLimit' }] : [],
        responses: {
          200: {
            description: `The free space of the ${parent.verboseName}`,
            content: json({ type: 'array', items: ref(`${base}Entry`) }),
          },
          ...errorResponses([403, 404]),
        },
      },
      post: {
        operationId: `${operation}_create`,
        summary: `Create ${created.verboseNamePlural} in the free space of a ${parent.verboseName} (one object, or an array: all or none)`,
        description:
          `Each request receives the next free space, in request order; ${shape.assigned.join(' and ')} are the server's choice. ` +
          'Decided by the single writer, so concurrent requests never receive the same space. No body asks for one object with defaults.',
        tags,
        requestBody: { required: false, content: json({ anyOf: [request, { type: 'array', items: request }] }) },
        responses: {
          201: {
            description: `The created ${created.verboseName} or ${created.verboseNamePlural}`,
            content: json({ anyOf: [ref(createdName), { type: 'array', items: ref(createdName) }] }),
          },
          400: {
            description:
              'Invalid input: errors by field, a list of them (one per request) when an array was sent; a refused prefix length is one string, as in NetBox',
            content: json({
              anyOf: [
                ref('ValidationError'),
                ref('BulkValidationError'),
                { type: 'array', items: { type: 'object', additionalProperties: { type: 'string' } } },
              ],
            }),
          },
          ...errorResponses([403, 404]),
          409: {
            description: 'Not enough free space for every request: nothing is created',
            content: json(ref('Error')),
          },
          ...errorResponses([413, 415]),
        },
      },
    };
  }
  return paths;
}

/**
 * Components every part of the document refers to: the error shapes, bulk item ids, the
 * generic nested object, the status body, and the query and path parameters shared by
 * every model.
 */
import { ref, type Schema } from './openapiFragments.js';

export function commonSchemas(): Record<string, Schema> {
  return {
    Error: {
      type: 'object',
      description: 'A failure that concerns the request as a whole (403, 404, 405, 409, 412, 413, 415, 503).',
      properties: { detail: { type: 'string' } },
      required: ['detail'],
    },
    ValidationError: {
      type: 'object',
      description:
        'Validation errors by field name; `non_field_errors` and `__all__` hold errors of the object as a whole, filter errors are keyed by the query parameter.',
      additionalProperties: {
        anyOf: [
          { type: 'array', items: { type: 'string' } },
          { type: 'object', additionalProperties: true },
        ],
      },
    },
    BulkValidationError: {
      type: 'array',
      description:
        'Errors of a bulk create, one object per element of the request in the same order ({} where the element was valid).',
      items: ref('ValidationError'),
    },
    BulkItemId: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        etag: {
          type: 'string',
          description:
            "Optional: the object's ETag; the request is refused (412) unless the object is still at that version. Not stored.",
        },
      },
      required: ['id'],
    },
    NestedObject: {
      type: 'object',
      description: 'A related object of a model this service does not serve yet.',
      properties: { id: { type: 'integer' }, url: { type: 'string', format: 'uri' }, display: { type: 'string' } },
      required: ['id'],
      additionalProperties: true,
    },
    Status: {
      type: 'object',
      properties: {
        'django-version': { type: ['string', 'null'] },
        'installed-apps': { type: 'object', additionalProperties: { type: 'string' } },
        'netbox-version': { type: 'string' },
        plugins: { type: 'object', additionalProperties: { type: ['string', 'null'] } },
        'python-version': { type: ['string', 'null'] },
        'rq-workers-running': { type: 'integer' },
      },
      required: ['netbox-version', 'installed-apps', 'plugins', 'rq-workers-running'],
      additionalProperties: true,
    },
  };
}

export function commonParameters(): Record<string, Schema> {
  return {
    limit: {
      name: 'limit',
      in: 'query',
      description: 'Number of results per page (capped by MAX_PAGE_SIZE).',
      schema: { type: 'integer', minimum: 0 },
    },
    listingLimit: {
      name: 'limit',
      in: 'query',
      description: 'At most this many entries (default PAGINATE_COUNT; 0 asks for MAX_PAGE_SIZE, which caps it).',
      schema: { type: 'integer', minimum: 0 },
    },
    offset: {
      name: 'offset',
      in: 'query',
      description: 'The initial index from which to return the results.',
      schema: { type: 'integer', minimum: 0 },
    },
    brief: {
      name: 'brief',
      in: 'query',
      description: 'Any non-empty value returns the brief form of the objects.',
      schema: { type: 'string' },
    },
    exclude: {
      name: 'exclude',
      in: 'query',
      description: 'Leave fields out (e.g. config_context).',
      schema: { type: 'string' },
    },
    fields: {
      name: 'fields',
      in: 'query',
      description: 'Comma-separated fields to return (id is always included).',
      schema: { type: 'string' },
    },
    id: { name: 'id', in: 'path', required: true, description: 'The object id.', schema: { type: 'integer' } },
  };
}

/**
 * The change log as the document describes it: object changes answered from the event
 * log (list, detail, live stream), what one request changed and its revert, every
 * model's history, and the JSON Schema of the event envelope.
 */
import type { ModelRegistry } from '../../models/registry.js';
import { errorResponses, json, operationPrefix, pageLinkSchemas, ref, type Schema } from './openapiFragments.js';

/** The ObjectChange component and its list page (`names`: component names by model key). */
export function changeLogSchemas(names: Map<string, string>): Record<string, Schema> {
  const user = names.get('auth.user');
  return {
    ObjectChange: {
      type: 'object',
      description: 'One changed object: a create, update or delete, with the request that caused it.',
      properties: {
        id: { type: 'integer', description: 'The position of the change in the event log.' },
        url: { type: 'string', format: 'uri' },
        display: { type: 'string' },
        time: { type: 'string', format: 'date-time' },
        user: { anyOf: [user ? ref(`Nested${user}`) : ref('NestedObject'), { type: 'null' }] },
        user_name: { type: 'string' },
        request_id: { type: 'string', format: 'uuid' },
        action: {
          type: 'object',
          properties: {
            value: { enum: ['create', 'update', 'delete'] },
            label: { enum: ['Created', 'Updated', 'Deleted'] },
          },
          required: ['value', 'label'],
        },
        changed_object_type: { type: 'string' },
        changed_object_id: { type: 'integer' },
        changed_object: { anyOf: [ref('NestedObject'), { type: 'null' }] },
        related_object_type: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        related_object_id: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
        related_object: { anyOf: [ref('NestedObject'), { type: 'null' }] },
        object_repr: { type: 'string' },
        prechange_data: { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'null' }] },
        postchange_data: { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'null' }] },
      },
      required: [
        'id',
        'url',
        'time',
        'user_name',
        'request_id',
        'action',
        'changed_object_type',
        'changed_object_id',
        'object_repr',
      ],
      additionalProperties: true,
    },
    PaginatedObjectChangeList: {
      type: 'object',
      properties: {
        count: { type: 'integer' },
        ...pageLinkSchemas(),
        results: { type: 'array', items: ref('ObjectChange') },
      },
      required: ['count', 'next', 'previous', 'results'],
    },
  };
}

export function changeLogPaths(registry: ModelRegistry): Record<string, Schema> {
  const paths: Record<string, Schema> = {};
  const filter = (name: string, schema: Schema, description: string): Schema => ({
    name,
    in: 'query',
    description,
    schema: { type: 'array', items: schema },
    style: 'form',
    explode: true,
  });
  const tags = ['extras'];
  paths['/api/extras/object-changes/'] = {
    get: {
      operationId: 'extras_object_changes_list',
      summary: 'List changes, newest first (read-only; served from the event log)',
      tags,
      parameters: [
        { $ref: '#/components/parameters/limit' },
        { $ref: '#/components/parameters/offset' },
        {
          name: 'ordering',
          in: 'query',
          description: 'id, time, user, user_name, request_id, action, changed_object_type, changed_object_id',
          schema: { type: 'string' },
        },
        filter(
          'request_id',
          { type: 'string', format: 'uuid' },
          'the X-Request-ID of the request that made the changes',
        ),
        filter('user', { type: 'string' }, 'username of the acting user'),
        filter('user_id', { type: 'integer' }, 'id of the acting user'),
        filter('user_name', { type: 'string' }, 'the user name recorded with the change'),
        filter('action', { enum: ['create', 'update', 'delete'] }, 'the kind of change'),
        filter('changed_object_type', { type: 'string' }, "'<app>.<model>' of the changed object"),
        filter('changed_object_type_id', { type: 'integer' }, 'content type id of the changed object'),
        filter('changed_object_id', { type: 'integer' }, 'id of the changed object'),
        filter('object_repr', { type: 'string' }, 'the string form of the object at the time'),
        {
          name: 'time_after',
          in: 'query',
          description: 'changes at or after this time',
          schema: { type: 'string', format: 'date-time' },
        },
        {
          name: 'time_before',
          in: 'query',
          description: 'changes at or before this time',
          schema: { type: 'string', format: 'date-time' },
        },
        { name: 'q', in: 'query', description: 'search the object representation', schema: { type: 'string' } },
      ],
      responses: {
        200: { description: 'A page of changes', content: json(ref('PaginatedObjectChangeList')) },
        ...errorResponses([400, 403]),
      },
    },
  };
  paths['/api/extras/object-changes/{id}/'] = {
    parameters: [{ $ref: '#/components/parameters/id' }],
    get: {
      operationId: 'extras_object_changes_read',
      summary: 'Read a change',
      tags,
      responses: {
        200: { description: 'The change', content: json(ref('ObjectChange')) },
        ...errorResponses([403, 404]),
      },
    },
  };
  paths['/api/extras/object-changes/stream/'] = {
    get: {
      operationId: 'extras_object_changes_stream',
      summary:
        'Live feed of new changes (Server-Sent Events; filters as on the list; Last-Event-ID resumes after a log position)',
      tags,
      parameters: [
        {
          name: 'Last-Event-ID',
          in: 'header',
          description: 'resume after this log position',
          schema: { type: 'integer' },
        },
      ],
      responses: {
        200: {
          description: 'An event stream: one `change` event per object change',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
        ...errorResponses([400, 403]),
      },
    },
  };
  const requestId = { name: 'request_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
  paths['/api/extras/requests/{request_id}/'] = {
    parameters: [requestId],
    get: {
      operationId: 'extras_requests_read',
      summary: 'What one request changed',
      tags,
      responses: {
        200: {
          description: 'The request and its changes',
          content: json({ type: 'object', additionalProperties: true }),
        },
        ...errorResponses([403, 404]),
      },
    },
  };
  paths['/api/extras/requests/{request_id}/revert/'] = {
    parameters: [requestId],
    post: {
      operationId: 'extras_requests_revert',
      summary: 'Undo every change of a request, as one new atomic request (409 when a later change conflicts)',
      tags,
      responses: {
        200: {
          description: 'The changes the revert made',
          content: json({ type: 'object', additionalProperties: true }),
        },
        ...errorResponses([403, 404, 409]),
      },
    },
  };
  paths['/api/schema/events/'] = {
    get: {
      operationId: 'schema_events',
      summary: 'JSON Schema of the change-event envelope (the Kafka topic contract)',
      tags: ['schema'],
      security: [],
      responses: {
        200: { description: 'A JSON Schema document', content: json({ type: 'object', additionalProperties: true }) },
      },
    },
  };
  for (const definition of registry.all()) {
    paths[`/api/${definition.app}/${definition.path}/{id}/history/`] = {
      parameters: [{ $ref: '#/components/parameters/id' }],
      get: {
        operationId: `${operationPrefix(definition)}_history`,
        summary: `Every version of a ${definition.verboseName}, from the event log (also after it was deleted)`,
        tags: [definition.app],
        parameters: [{ $ref: '#/components/parameters/limit' }, { $ref: '#/components/parameters/offset' }],
        responses: {
          200: { description: 'A page of changes', content: json(ref('PaginatedObjectChangeList')) },
          ...errorResponses([403, 404]),
        },
      },
    };
  }
  return paths;
}

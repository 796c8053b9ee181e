/**
 * The OpenAPI 3.1 document of the API, generated from the model registry: every list
 * and detail path with its methods, every list parameter (filters with their lookups,
 * ordering, limit/offset, brief, exclude, fields), request bodies (the ajv write schemas
 * of the write side, with relations spelled out), responses in the complete, brief and
 * nested forms, the list envelope and the error shapes, and the `Authorization: Token`
 * security scheme.
 */
import { buildWriteSchema, writableFields } from '../../commands/writeSchema.js';
import type { ModelRegistry } from '../../models/registry.js';
import type { FieldDefinition, ModelDefinition } from '../../models/types.js';
import { modelFilters, type DescribesFilters } from './filters.js';
import { fieldLabel } from './options.js';
import { modelViewName } from './views.js';

type Schema = Record<string, unknown>;

export interface OpenApiOptions {
  /** Service version (info.version). */
  version: string;
  apiVersion: string;
  compiler?: DescribesFilters;
  /** The change log is served (/api/extras/object-changes/, from the event log). */
  changeLog?: boolean;
}

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
const json = (schema: Schema) => ({ 'application/json': { schema } });

/** 'IP address' → 'IPAddress'; unique across the registry (app-prefixed on a clash). */
export function componentNames(registry: ModelRegistry): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Map<string, number>();
  const base = (d: ModelDefinition) => modelViewName(d).replace(/[^A-Za-z0-9]/g, '');
  for (const d of registry.all()) taken.set(base(d), (taken.get(base(d)) ?? 0) + 1);
  for (const d of registry.all()) {
    const name = base(d);
    names.set(d.key, (taken.get(name) ?? 0) > 1 ? `${d.app[0].toUpperCase()}${d.app.slice(1)}${name}` : name);
  }
  return names;
}

/** '<app>.<model>' strings: the accepted ones when the field names them, else any content type. */
function contentTypeSchema(field: FieldDefinition): Schema {
  if (field.allowedTypes?.length) return { type: 'string', enum: field.allowedTypes };
  return { type: 'string', pattern: '^[a-z][a-z0-9_]*\\.[a-z][a-z0-9_]*$' };
}

function arrayItems(field: FieldDefinition): Schema {
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

function operationPrefix(definition: ModelDefinition): string {
  return `${definition.app}_${definition.path.replace(/-/g, '_')}`;
}

class DocumentBuilder {
  private readonly names: Map<string, string>;
  readonly schemas: Record<string, Schema> = {};

  constructor(
    private readonly registry: ModelRegistry,
    private readonly options: OpenApiOptions,
  ) {
    this.names = componentNames(registry);
  }

  name(key: string): string | undefined {
    return this.names.get(key);
  }

  /** The nested form of a related object: its component when the model is served, else the generic one. */
  private nestedRef(target: string | undefined): Schema {
    const name = target ? this.names.get(target) : undefined;
    return name ? ref(`Nested${name}`) : ref('NestedObject');
  }

  private choiceSchema(field: FieldDefinition, bare: boolean): Schema {
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

  private computedSchema(field: FieldDefinition): Schema {
    const value = field.value;
    if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
    if (typeof value === 'boolean') return { type: 'boolean' };
    if (typeof value === 'string') return { type: 'string' };
    if (Array.isArray(value)) return { type: 'array', items: {} };
    if (value && typeof value === 'object') return { type: 'object' };
    return {};
  }

  /** The schema of a field as the serializer renders it (`bare`: brief/nested forms render choices bare). */
  private readSchema(definition: ModelDefinition, field: FieldDefinition, bare: boolean): Schema {
    let schema: Schema;
    let mayBeNull = field.nullable === true;
    switch (field.type) {
      case 'id':
      case 'integer':
      case 'count':
        schema = { type: 'integer' };
        break;
      case 'url':
        schema = { type: 'string', format: 'uri' };
        break;
      case 'display':
        schema = { type: 'string' };
        break;
      case 'string':
      case 'cidr':
      case 'ip_address':
      case 'mac_address':
      case 'wwn':
        schema = { type: 'string' };
        if (field.maxLength !== undefined) schema.maxLength = field.maxLength;
        if (field.format === 'email') schema.format = 'email';
        if (field.format === 'uri') schema.format = 'uri';
        break;
      case 'decimal':
        schema = { type: 'number' };
        break;
      case 'boolean':
        schema = { type: 'boolean' };
        break;
      case 'date':
        schema = { type: 'string', format: 'date' };
        break;
      case 'datetime':
        schema = { type: 'string', format: 'date-time' };
        break;
      case 'json':
        schema = {};
        mayBeNull = false;
        break;
      case 'array':
        schema = { type: 'array', items: arrayItems(field) };
        break;
      case 'choice':
        schema = this.choiceSchema(field, bare);
        mayBeNull = mayBeNull || field.emptyAsNull === true || (!field.required && (field.default === undefined || field.default === null));
        break;
      case 'fk':
        schema = field.representation === 'id' ? { type: 'integer' } : this.nestedRef(field.target);
        mayBeNull = mayBeNull || !field.required;
        break;
      case 'm2m':
      case 'tags':
        schema = { type: 'array', items: this.nestedRef(field.target) };
        break;
      case 'reverse':
        schema = { type: 'array', items: this.nestedRef(field.target) };
        break;
      case 'content_type':
        schema = contentTypeSchema(field);
        break;
      case 'generic_fk':
        schema = { anyOf: (field.targets ?? []).map((t) => this.nestedRef(t)) };
        mayBeNull = true;
        break;
      case 'custom_fields':
        schema = { type: 'object', additionalProperties: true };
        break;
      case 'computed':
        schema = this.computedSchema(field);
        break;
      default:
        schema = {};
    }
    if (field.help) schema = { ...schema, description: field.help };
    if (field.readOnly || ['id', 'url', 'display', 'count', 'reverse', 'computed', 'generic_fk'].includes(field.type)) {
      schema = { ...schema, readOnly: true };
    }
    if (mayBeNull && Object.keys(schema).some((k) => k !== 'description' && k !== 'readOnly')) {
      const { description, readOnly, ...rest } = schema;
      schema = { ...nullable(rest) };
      if (description !== undefined) schema.description = description;
      if (readOnly !== undefined) schema.readOnly = readOnly;
    }
    return { title: fieldLabel(field), ...schema };
  }

  private objectSchema(definition: ModelDefinition, fields: FieldDefinition[], bare: boolean, description: string): Schema {
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const field of fields) {
      properties[field.name] = this.readSchema(definition, field, bare);
      // Annotated counts are missing from create responses; a token's key only shows when retrievable.
      if (!field.annotated && !field.secret) required.push(field.name);
    }
    return { type: 'object', description, properties, required };
  }

  /** Relations on write: an id, or attributes that identify exactly one object (SPEC 2.5). */
  private writeRelation(field: FieldDefinition): Schema {
    const one: Schema = {
      anyOf: [
        { type: 'integer', description: `id of the ${field.target ?? 'related'} object` },
        { type: 'object', additionalProperties: true, description: 'attributes that identify exactly one object' },
      ],
    };
    if (field.type === 'fk') return field.nullable ? { anyOf: [...(one.anyOf as Schema[]), { type: 'null' }] } : one;
    return { type: 'array', items: one };
  }

  private writeSchema(definition: ModelDefinition, patch: boolean): Schema {
    const base = buildWriteSchema(definition, patch ? 'patch' : 'create') as { properties: Record<string, Schema>; required: string[] };
    const byName = new Map(writableFields(definition).map((f) => [f.name, f]));
    const properties: Record<string, Schema> = {};
    for (const [name, schema] of Object.entries(base.properties)) {
      const field = byName.get(name)!;
      let property: Schema = schema;
      if (field.type === 'fk' || field.type === 'm2m' || field.type === 'tags') property = this.writeRelation(field);
      else if (field.type === 'content_type') {
        const types = contentTypeSchema(field);
        property = field.nullable ? nullable(types) : types;
      } else if (field.type === 'array') property = { type: 'array', items: arrayItems(field) }; else if (field.type === 'custom_fields') property = { type: 'object', additionalProperties: true };
      else if (field.type === 'json') property = {};
      property = { title: fieldLabel(field), ...property };
      if (field.help) property.description = field.help;
      if (field.writeOnly) property.writeOnly = true;
      if (field.default !== undefined && field.default !== null && typeof field.default !== 'object') property.default = field.default;
      properties[name] = property;
    }
    const schema: Schema = {
      type: 'object',
      description: patch
        ? `The fields of a ${definition.verboseName} to change (PATCH).`
        : `A ${definition.verboseName} as written by POST and PUT (related objects by id or identifying attributes).`,
      properties,
    };
    if (base.required.length) schema.required = base.required;
    return schema;
  }

  addModel(definition: ModelDefinition): void {
    const name = this.names.get(definition.key)!;
    const rendered = definition.fields.filter((f) => !f.internal && !f.writeOnly);
    const brief = rendered.filter((f) => definition.brief.includes(f.name));
    this.schemas[name] = this.objectSchema(definition, rendered, false, `A ${definition.verboseName} (${definition.key}), complete form.`);
    this.schemas[`Brief${name}`] = this.objectSchema(definition, brief, true, `A ${definition.verboseName} in brief form (?brief=1).`);
    this.schemas[`Nested${name}`] = this.objectSchema(
      definition,
      brief.filter((f) => !f.annotated),
      true,
      `A ${definition.verboseName} as nested in other objects.`,
    );
    this.schemas[`Paginated${name}List`] = {
      type: 'object',
      description: `A page of ${definition.verboseNamePlural}.`,
      properties: {
        count: { type: 'integer', description: 'All objects matching the query.' },
        next: { anyOf: [{ type: 'string', format: 'uri' }, { type: 'null' }], description: 'The next page (limit and offset kept).' },
        previous: { anyOf: [{ type: 'string', format: 'uri' }, { type: 'null' }], description: 'The previous page.' },
        results: { type: 'array', items: { anyOf: [ref(name), ref(`Brief${name}`)] } },
      },
      required: ['count', 'next', 'previous', 'results'],
    };
    if (!definition.readOnly) {
      this.schemas[`Writable${name}`] = this.writeSchema(definition, false);
      this.schemas[`PatchedWritable${name}`] = this.writeSchema(definition, true);
    }
  }

  /** POST /api/users/tokens/provision/: a token for a username and password (SPEC 4.2). */
  private userPaths(paths: Record<string, Schema>): void {
    const token = this.names.get('users.token');
    if (!token) return;
    paths['/api/users/tokens/provision/'] = {
      post: {
        operationId: 'users_tokens_provision_create',
        summary: 'Create a token for a user, authenticating by username and password (no token needed)',
        tags: ['users'],
        security: [],
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            properties: {
              username: { type: 'string' },
              password: { type: 'string', writeOnly: true },
              expires: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
              description: { type: 'string' },
              write_enabled: { type: 'boolean' },
            },
            required: ['username', 'password'],
          }),
        },
        responses: { 201: { description: 'The new token, its key shown', content: json(ref(token)) }, ...this.errors([400, 403]) },
      },
    };
  }

  /** The change log, answered from the event log (NetBox's object changes; read-only). */
  private changeLogPaths(paths: Record<string, Schema>): void {
    const user = this.names.get('auth.user');
    this.schemas.ObjectChange = {
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
          properties: { value: { enum: ['create', 'update', 'delete'] }, label: { enum: ['Created', 'Updated', 'Deleted'] } },
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
      required: ['id', 'url', 'time', 'user_name', 'request_id', 'action', 'changed_object_type', 'changed_object_id', 'object_repr'],
      additionalProperties: true,
    };
    this.schemas.PaginatedObjectChangeList = {
      type: 'object',
      properties: {
        count: { type: 'integer' },
        next: { anyOf: [{ type: 'string', format: 'uri' }, { type: 'null' }] },
        previous: { anyOf: [{ type: 'string', format: 'uri' }, { type: 'null' }] },
        results: { type: 'array', items: ref('ObjectChange') },
      },
      required: ['count', 'next', 'previous', 'results'],
    };
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
          { name: 'ordering', in: 'query', description: 'id, time, user, user_name, request_id, action, changed_object_type, changed_object_id', schema: { type: 'string' } },
          filter('request_id', { type: 'string', format: 'uuid' }, 'the X-Request-ID of the request that made the changes'),
          filter('user', { type: 'string' }, 'username of the acting user'),
          filter('user_id', { type: 'integer' }, 'id of the acting user'),
          filter('user_name', { type: 'string' }, 'the user name recorded with the change'),
          filter('action', { enum: ['create', 'update', 'delete'] }, 'the kind of change'),
          filter('changed_object_type', { type: 'string' }, "'<app>.<model>' of the changed object"),
          filter('changed_object_type_id', { type: 'integer' }, 'content type id of the changed object'),
          filter('changed_object_id', { type: 'integer' }, 'id of the changed object'),
          filter('object_repr', { type: 'string' }, 'the string form of the object at the time'),
          { name: 'time_after', in: 'query', description: 'changes at or after this time', schema: { type: 'string', format: 'date-time' } },
          { name: 'time_before', in: 'query', description: 'changes at or before this time', schema: { type: 'string', format: 'date-time' } },
          { name: 'q', in: 'query', description: 'search the object representation', schema: { type: 'string' } },
        ],
        responses: { 200: { description: 'A page of changes', content: json(ref('PaginatedObjectChangeList')) }, ...this.errors([400, 403]) },
      },
    };
    paths['/api/extras/object-changes/{id}/'] = {
      parameters: [{ $ref: '#/components/parameters/id' }],
      get: {
        operationId: 'extras_object_changes_read',
        summary: 'Read a change',
        tags,
        responses: { 200: { description: 'The change', content: json(ref('ObjectChange')) }, ...this.errors([403, 404]) },
      },
    };
    paths['/api/extras/object-changes/stream/'] = {
      get: {
        operationId: 'extras_object_changes_stream',
        summary: 'Live feed of new changes (Server-Sent Events; filters as on the list; Last-Event-ID resumes after a log position)',
        tags,
        parameters: [{ name: 'Last-Event-ID', in: 'header', description: 'resume after this log position', schema: { type: 'integer' } }],
        responses: { 200: { description: 'An event stream: one `change` event per object change', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...this.errors([400, 403]) },
      },
    };
    const requestId = { name: 'request_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
    paths['/api/extras/requests/{request_id}/'] = {
      parameters: [requestId],
      get: {
        operationId: 'extras_requests_read',
        summary: 'What one request changed',
        tags,
        responses: { 200: { description: 'The request and its changes', content: json({ type: 'object', additionalProperties: true }) }, ...this.errors([403, 404]) },
      },
    };
    paths['/api/extras/requests/{request_id}/revert/'] = {
      parameters: [requestId],
      post: {
        operationId: 'extras_requests_revert',
        summary: "Undo every change of a request, as one new atomic request (409 when a later change conflicts)",
        tags,
        responses: { 200: { description: 'The changes the revert made', content: json({ type: 'object', additionalProperties: true }) }, ...this.errors([403, 404, 409]) },
      },
    };
    paths['/api/schema/events/'] = {
      get: {
        operationId: 'schema_events',
        summary: 'JSON Schema of the change-event envelope (the Kafka topic contract)',
        tags: ['schema'],
        security: [],
        responses: { 200: { description: 'A JSON Schema document', content: json({ type: 'object', additionalProperties: true }) } },
      },
    };
    for (const definition of this.registry.all()) {
      paths[`/api/${definition.app}/${definition.path}/{id}/history/`] = {
        parameters: [{ $ref: '#/components/parameters/id' }],
        get: {
          operationId: `${operationPrefix(definition)}_history`,
          summary: `Every version of a ${definition.verboseName}, from the event log (also after it was deleted)`,
          tags: [definition.app],
          parameters: [{ $ref: '#/components/parameters/limit' }, { $ref: '#/components/parameters/offset' }],
          responses: { 200: { description: 'A page of changes', content: json(ref('PaginatedObjectChangeList')) }, ...this.errors([403, 404]) },
        },
      };
    }
  }

  commonSchemas(): void {
    this.schemas.Error = {
      type: 'object',
      description: 'A failure that concerns the request as a whole (403, 404, 405, 409, 412, 413, 415, 503).',
      properties: { detail: { type: 'string' } },
      required: ['detail'],
    };
    this.schemas.ValidationError = {
      type: 'object',
      description:
        'Validation errors by field name; `non_field_errors` and `__all__` hold errors of the object as a whole, filter errors are keyed by the query parameter.',
      additionalProperties: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'object', additionalProperties: true }] },
    };
    this.schemas.BulkValidationError = {
      type: 'array',
      description: 'Errors of a bulk create, one object per element of the request in the same order ({} where the element was valid).',
      items: ref('ValidationError'),
    };
    this.schemas.BulkItemId = {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        etag: { type: 'string', description: "Optional: the object's ETag; the request is refused (412) unless the object is still at that version. Not stored." },
      },
      required: ['id'],
    };
    this.schemas.NestedObject = {
      type: 'object',
      description: 'A related object of a model this service does not serve yet.',
      properties: { id: { type: 'integer' }, url: { type: 'string', format: 'uri' }, display: { type: 'string' } },
      required: ['id'],
      additionalProperties: true,
    };
    this.schemas.Status = {
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
    };
  }

  parameters(): Record<string, Schema> {
    return {
      limit: { name: 'limit', in: 'query', description: 'Number of results per page (capped by MAX_PAGE_SIZE).', schema: { type: 'integer', minimum: 0 } },
      offset: { name: 'offset', in: 'query', description: 'The initial index from which to return the results.', schema: { type: 'integer', minimum: 0 } },
      brief: { name: 'brief', in: 'query', description: 'Any non-empty value returns the brief form of the objects.', schema: { type: 'string' } },
      exclude: { name: 'exclude', in: 'query', description: 'Leave fields out (e.g. config_context).', schema: { type: 'string' } },
      fields: { name: 'fields', in: 'query', description: 'Comma-separated fields to return (id is always included).', schema: { type: 'string' } },
      id: { name: 'id', in: 'path', required: true, description: 'The object id.', schema: { type: 'integer' } },
    };
  }

  private listParameters(definition: ModelDefinition): Schema[] {
    const ordering = definition.orderingFields ?? definition.fields.filter((f) => !f.internal && !f.writeOnly).map((f) => f.name);
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
    for (const filter of modelFilters(this.registry, definition, this.options.compiler)) {
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

  private errors(codes: number[]): Record<string, Schema> {
    const text: Record<number, string> = {
      400: 'Invalid input',
      403: 'Authentication failed or permission denied',
      404: 'No such object (or not visible to the caller)',
      409: 'Refused: dependent objects exist or a conflicting change',
      412: 'If-Match precondition failed',
      413: 'Request body too large',
      415: 'The request body is not JSON',
    };
    const out: Record<string, Schema> = {};
    for (const code of codes) {
      out[String(code)] = { description: text[code], content: json(code === 400 ? ref('ValidationError') : ref('Error')) };
    }
    return out;
  }

  paths(): Record<string, Schema> {
    const paths: Record<string, Schema> = {};
    for (const definition of this.registry.all()) {
      const name = this.names.get(definition.key)!;
      const prefix = operationPrefix(definition);
      const tags = [definition.app];
      const one = definition.verboseName;
      const many = definition.verboseNamePlural;
      const list: Schema = {
        get: {
          operationId: `${prefix}_list`,
          summary: `List ${many}`,
          description:
            'Filters combine with AND; a repeated filter ORs its values (tags: all must match). ' +
            'Custom fields filter as cf_<name> (with the lookups of their type).',
          tags,
          parameters: this.listParameters(definition),
          responses: { 200: { description: `A page of ${many}`, content: json(ref(`Paginated${name}List`)) }, ...this.errors([400, 403]) },
        },
      };
      const detail: Schema = {
        parameters: [{ $ref: '#/components/parameters/id' }],
        get: {
          operationId: `${prefix}_read`,
          summary: `Read a ${one}`,
          tags,
          parameters: [{ $ref: '#/components/parameters/brief' }, { $ref: '#/components/parameters/exclude' }, { $ref: '#/components/parameters/fields' }],
          responses: { 200: { description: `The ${one}`, content: json({ anyOf: [ref(name), ref(`Brief${name}`)] }) }, ...this.errors([403, 404]) },
        },
      };
      if (!definition.readOnly) {
        const writable = ref(`Writable${name}`);
        const patched = ref(`PatchedWritable${name}`);
        const bulkItem = (schema: Schema) => ({ type: 'array', items: { allOf: [schema, ref('BulkItemId')] } });
        const array = { type: 'array', items: ref(name) };
        Object.assign(list, {
          post: {
            operationId: `${prefix}_create`,
            summary: `Create one ${one} (an object) or several (an array, all or none)`,
            tags,
            requestBody: { required: true, content: json({ anyOf: [writable, { type: 'array', items: writable }] }) },
            responses: {
              201: { description: `The created ${one} or ${many}`, content: json({ anyOf: [ref(name), array] }) },
              400: { description: 'Invalid input', content: json({ anyOf: [ref('ValidationError'), ref('BulkValidationError')] }) },
              ...this.errors([403, 413, 415]),
            },
          },
          put: {
            operationId: `${prefix}_bulk_update`,
            summary: `Replace several ${many} (all or none)`,
            tags,
            requestBody: { required: true, content: json(bulkItem(writable)) },
            responses: { 200: { description: `The updated ${many}`, content: json(array) }, ...this.errors([400, 403, 404, 412, 413, 415]) },
          },
          patch: {
            operationId: `${prefix}_bulk_partial_update`,
            summary: `Change several ${many} (all or none)`,
            tags,
            requestBody: { required: true, content: json(bulkItem(patched)) },
            responses: { 200: { description: `The updated ${many}`, content: json(array) }, ...this.errors([400, 403, 404, 412, 413, 415]) },
          },
          delete: {
            operationId: `${prefix}_bulk_delete`,
            summary: `Delete several ${many} (all or none)`,
            tags,
            requestBody: { required: true, content: json({ type: 'array', items: ref('BulkItemId') }) },
            responses: { 204: { description: 'Deleted' }, ...this.errors([400, 403, 404, 409, 412, 415]) },
          },
        });
        Object.assign(detail, {
          put: {
            operationId: `${prefix}_update`,
            summary: `Replace a ${one} (every required field)`,
            tags,
            requestBody: { required: true, content: json(writable) },
            responses: { 200: { description: `The updated ${one}`, content: json(ref(name)) }, ...this.errors([400, 403, 404, 412, 413, 415]) },
          },
          patch: {
            operationId: `${prefix}_partial_update`,
            summary: `Change fields of a ${one}`,
            tags,
            requestBody: { required: true, content: json(patched) },
            responses: { 200: { description: `The updated ${one}`, content: json(ref(name)) }, ...this.errors([400, 403, 404, 412, 413, 415]) },
          },
          delete: {
            operationId: `${prefix}_delete`,
            summary: `Delete a ${one}`,
            tags,
            responses: { 204: { description: 'Deleted' }, ...this.errors([403, 404, 409, 412]) },
          },
        });
      }
      paths[`/api/${definition.app}/${definition.path}/`] = list;
      paths[`/api/${definition.app}/${definition.path}/{id}/`] = detail;
    }
    this.userPaths(paths);
    if (this.options.changeLog) this.changeLogPaths(paths);
    paths['/api/status/'] = {
      get: {
        operationId: 'status_retrieve',
        summary: 'Versions, installed applications and the projector position',
        tags: ['status'],
        responses: { 200: { description: 'Status', content: json(ref('Status')) }, ...this.errors([403]) },
      },
    };
    return paths;
  }
}

/**
 * Query parameters that several operations share word for word (id__gte, name__ic,
 * created__lt ...) move to components.parameters and are referenced: the document
 * shrinks several times over.
 */
function shareParameters(paths: Record<string, Schema>, components: Record<string, Schema>): void {
  const operations = Object.values(paths).flatMap((item) => Object.values(item).filter((op): op is Schema => !!op && typeof op === 'object' && 'responses' in op));
  const uses = new Map<string, number>();
  for (const op of operations) {
    for (const p of (op.parameters as Schema[] | undefined) ?? []) {
      if (p.$ref) continue;
      const key = JSON.stringify(p);
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  const names = new Map<string, string>();
  for (const op of operations) {
    const params = op.parameters as Schema[] | undefined;
    if (!params) continue;
    op.parameters = params.map((p) => {
      if (p.$ref) return p;
      const key = JSON.stringify(p);
      if ((uses.get(key) ?? 0) < 2) return p;
      let name = names.get(key);
      if (!name) {
        const base = `filter.${String(p.name)}`;
        name = base;
        for (let i = 2; name in components; i++) name = `${base}.${i}`;
        components[name] = p;
        names.set(key, name);
      }
      return { $ref: `#/components/parameters/${name}` };
    });
  }
}

/**
 * The value lists of choice fields become named schemas (`InterfaceTypeChoices`) that
 * every response, request body and filter refers to, instead of repeating long enums.
 */
function shareChoices(registry: ModelRegistry, names: Map<string, string>, document: Record<string, unknown>, schemas: Record<string, Schema>): void {
  const byValues = new Map<string, string>();
  for (const definition of registry.all()) {
    for (const field of definition.fields) {
      if (field.type !== 'choice' || !field.choices?.length) continue;
      const values = field.choices.map((c) => c.value);
      const key = JSON.stringify(values);
      if (byValues.has(key)) continue;
      const pascal = field.name.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
      const name = `${names.get(definition.key)}${pascal}Choices`;
      byValues.set(key, name);
      schemas[name] = {
        enum: values,
        description: field.choices.map((c) => `\`${String(c.value)}\`: ${c.label}`).join(', '),
      };
    }
  }
  const walk = (node: unknown, inSchemas: boolean): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, inSchemas));
    if (!node || typeof node !== 'object') return;
    const object = node as Record<string, unknown>;
    if (Array.isArray(object.enum) && !inSchemas) {
      const name = byValues.get(JSON.stringify(object.enum));
      if (name) {
        delete object.enum;
        object.$ref = `#/components/schemas/${name}`;
      }
    }
    for (const value of Object.values(object)) walk(value, false);
  };
  walk(document, false);
  // the named lists themselves stay as they are; everything else in the schemas refers to them
  for (const [name, schema] of Object.entries(schemas)) if (!name.endsWith('Choices') || !Array.isArray(schema.enum)) walk(schema, false);
}

/** Builds the whole document (without `servers`, which depends on the request). */
export function buildOpenApi(registry: ModelRegistry, options: OpenApiOptions): Record<string, unknown> {
  const builder = new DocumentBuilder(registry, options);
  builder.commonSchemas();
  for (const definition of registry.all()) builder.addModel(definition);
  const apps = [...new Set(registry.all().map((d) => d.app))];
  const paths = builder.paths();
  const parameters = builder.parameters();
  shareChoices(registry, componentNames(registry), { paths, parameters }, builder.schemas);
  shareParameters(paths, parameters);
  return {
    openapi: '3.1.0',
    info: {
      title: 'netledger API',
      version: options.version,
      description:
        `A NetBox-compatible (API ${options.apiVersion}) REST API over an event-sourced registry. ` +
        'Authenticate with the header `Authorization: Token <40 hex characters>`.',
      license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
    },
    tags: [...apps.map((app) => ({ name: app })), { name: 'status' }],
    paths,
    components: {
      schemas: builder.schemas,
      parameters,
      securitySchemes: {
        tokenAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The word Token, one space, and the API token: `Token 0123456789abcdef0123456789abcdef01234567`.',
        },
      },
    },
    security: [{ tokenAuth: [] }],
  };
}

/**
 * OpenAPI 3.0 → Swagger 2.0, the dialect NetBox 3.4 published (drf-yasg) and the one its
 * clients parse: Ansible's nb_inventory reads the names of the list parameters of
 * `paths['/dcim/devices/'].get.parameters` (paths without the `/api` base path, every
 * parameter inline with its `name`) and compares `info.version` with the API version.
 *
 *   servers                       → host, basePath (the base URL's path + /api), schemes
 *   /api/... paths                → the path below basePath
 *   $ref to components.parameters → the parameter inline
 *   parameter.schema              → type/format/items/enum... on the parameter itself;
 *                                   exploded arrays → collectionFormat: multi
 *   requestBody                   → one `in: body` parameter named data
 *   response.content              → response.schema (+ produces when not JSON)
 *   components.schemas            → definitions (#/components/schemas/X → #/definitions/X)
 *   components.securitySchemes    → securityDefinitions
 *   nullable                      → x-nullable (drf-yasg's extension)
 *   anyOf / oneOf                 → the first alternative (2.0 has no alternatives; the
 *                                   first is the plain object form: one object, not a list)
 *   writeOnly, deprecated, not    → dropped
 */
type Node = Record<string, any>;

const JSON_MEDIA = 'application/json';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
const SCHEMA_KEYS = new Set([
  '$ref',
  'format',
  'title',
  'description',
  'default',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'enum',
  'type',
  'items',
  'allOf',
  'properties',
  'additionalProperties',
  'discriminator',
  'readOnly',
  'xml',
  'externalDocs',
  'example',
]);
/** What a non-body parameter (or an array parameter's items) may say about its value. */
const SIMPLE_KEYS = [
  'format',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'enum',
  'multipleOf',
];
const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);

export interface SwaggerOptions {
  /** The service's base URL (scheme, host and any prefix the API is mounted under). */
  baseUrl: string;
  /** `info.version`: NetBox's API version (major.minor), which clients compare with /api/status/. */
  apiVersion: string;
}

const definitionRef = (ref: string) => ref.replace(/^#\/components\/schemas\//, '#/definitions/');

/** Converts one schema object (recursively). */
export function schema20(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(schema20);
  if (!input || typeof input !== 'object') return input;
  let source = input as Node;
  for (const combiner of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(source[combiner]) && source[combiner].length) {
      const { [combiner]: alternatives, ...rest } = source;
      source = { ...alternatives[0], ...rest };
    }
  }
  const out: Node = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable') {
      if (value === true) out['x-nullable'] = true;
    } else if (key.startsWith('x-')) {
      out[key] = value;
    } else if (!SCHEMA_KEYS.has(key)) {
      continue;
    } else if (key === '$ref') {
      out.$ref = definitionRef(String(value));
    } else if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Node).map(([name, property]) => [name, schema20(property)]),
      );
    } else if (key === 'items' || key === 'additionalProperties' || key === 'allOf') {
      out[key] = typeof value === 'boolean' ? value : schema20(value);
    } else if (key === 'enum') {
      out.enum = (value as unknown[]).filter((member) => member !== null);
    } else if (key === 'discriminator') {
      out.discriminator = typeof value === 'string' ? value : (value as Node).propertyName;
    } else {
      out[key] = value;
    }
  }
  if (out.$ref && Object.keys(out).some((key) => key !== '$ref')) {
    // 2.0 ignores whatever sits beside a $ref: keep the reference alone
    for (const key of Object.keys(out)) if (key !== '$ref') delete out[key];
  }
  if (Array.isArray(out.enum) && out.enum.length === 0) delete out.enum;
  return out;
}

/** The value description of a non-body parameter (or of an array parameter's items): primitives only, anything richer is a string. */
function simpleValue(schema: Node | undefined): Node {
  // alternatives of different kinds (an id or the word null): the value is text
  if ((schema?.anyOf?.length ?? 0) > 1 || (schema?.oneOf?.length ?? 0) > 1) return { type: 'string' };
  const plain = (schema20(schema ?? {}) ?? {}) as Node;
  if (plain.type === 'array') {
    return {
      type: 'array',
      items: simpleValue(schema?.items ?? {}),
      ...pick(plain, ['maxItems', 'minItems', 'uniqueItems']),
    };
  }
  if (!PRIMITIVES.has(plain.type) || plain.$ref) return { type: 'string' };
  return { type: plain.type, ...pick(plain, SIMPLE_KEYS) };
}

function pick(node: Node, keys: string[]): Node {
  return Object.fromEntries(keys.filter((key) => node[key] !== undefined).map((key) => [key, node[key]]));
}

function parameter20(input: Node, components: Node): Node | null {
  const parameter = input.$ref ? components.parameters?.[String(input.$ref).split('/').pop()!] : input;
  if (!parameter || !['query', 'header', 'path'].includes(parameter.in)) return null;
  const value = simpleValue(parameter.schema);
  const out: Node = { name: parameter.name, in: parameter.in };
  if (parameter.description) out.description = parameter.description;
  if (parameter.required || parameter.in === 'path') out.required = true;
  Object.assign(out, value);
  if (value.type === 'array') {
    // form style explodes by default: ?tag=a&tag=b
    const exploded =
      parameter.explode ?? (parameter.style ?? (parameter.in === 'query' ? 'form' : 'simple')) === 'form';
    out.collectionFormat = exploded ? 'multi' : 'csv';
  }
  return out;
}

function response20(input: Node): Node {
  const out: Node = { description: input.description ?? '' };
  const content = (input.content ?? {}) as Node;
  const media = content[JSON_MEDIA] ?? Object.values(content)[0];
  if (media?.schema) out.schema = schema20(media.schema);
  if (input.headers) {
    out.headers = Object.fromEntries(
      Object.entries(input.headers as Node).map(([name, header]) => [
        name,
        { description: header.description, ...simpleValue(header.schema) },
      ]),
    );
  }
  return out;
}

function operation20(input: Node, components: Node): Node {
  const out: Node = {};
  for (const key of ['operationId', 'summary', 'description', 'tags', 'security', 'externalDocs'])
    if (input[key] !== undefined) out[key] = input[key];
  const parameters = ((input.parameters ?? []) as Node[])
    .map((p) => parameter20(p, components))
    .filter((p): p is Node => p !== null);
  const body = input.requestBody?.$ref
    ? components.requestBodies?.[String(input.requestBody.$ref).split('/').pop()!]
    : input.requestBody;
  if (body) {
    const content = (body.content ?? {}) as Node;
    const media = content[JSON_MEDIA] ?? Object.values(content)[0];
    parameters.push({ name: 'data', in: 'body', required: true, schema: schema20(media?.schema ?? {}) });
    const types = Object.keys(content);
    if (types.length && types.some((type) => type !== JSON_MEDIA)) out.consumes = types;
  }
  out.parameters = parameters;
  const produced = new Set<string>();
  out.responses = Object.fromEntries(
    Object.entries(input.responses as Node).map(([status, response]) => {
      const resolved = response.$ref ? components.responses?.[String(response.$ref).split('/').pop()!] : response;
      for (const type of Object.keys(resolved?.content ?? {})) produced.add(type);
      return [status, response20(resolved ?? {})];
    }),
  );
  if ([...produced].some((type) => type !== JSON_MEDIA)) out.produces = [...produced];
  if (input.deprecated) out.deprecated = true;
  return out;
}

/** Where the API lives, in 2.0's terms: the base URL's host and scheme, and its path (a prefix the service is mounted under) plus /api. */
export function swaggerLocation(baseUrl: string): { host: string; schemes: string[]; basePath: string } {
  const url = new URL(baseUrl);
  return {
    host: url.host,
    schemes: [url.protocol.replace(/:$/, '')],
    basePath: `${url.pathname.replace(/\/+$/, '')}/api`,
  };
}

/** The whole Swagger 2.0 document for a base URL, from the OpenAPI 3.0 document. */
export function toSwagger20(document: Node, options: SwaggerOptions): Node {
  const components = (document.components ?? {}) as Node;
  const paths: Node = {};
  for (const [path, item] of Object.entries(document.paths as Node)) {
    if (!path.startsWith('/api/')) continue;
    const converted: Node = {};
    const shared = ((item.parameters ?? []) as Node[])
      .map((p) => parameter20(p, components))
      .filter((p): p is Node => p !== null);
    if (shared.length) converted.parameters = shared;
    for (const method of METHODS) if (item[method]) converted[method] = operation20(item[method], components);
    paths[path.slice('/api'.length)] = converted;
  }
  const info = document.info as Node;
  const securityDefinitions = Object.fromEntries(
    Object.entries((components.securitySchemes ?? {}) as Node)
      .filter(([, scheme]) => scheme.type === 'apiKey' && scheme.in !== 'cookie')
      .map(([name, scheme]) => [
        name,
        {
          type: 'apiKey',
          name: scheme.name,
          in: scheme.in,
          ...(scheme.description ? { description: scheme.description } : {}),
        },
      ]),
  );
  return {
    swagger: '2.0',
    info: {
      title: info.title,
      description: info.description,
      ...(info.license
        ? { license: { name: info.license.name, ...(info.license.url ? { url: info.license.url } : {}) } }
        : {}),
      version: options.apiVersion,
      'x-service-version': info.version,
    },
    ...swaggerLocation(options.baseUrl),
    consumes: [JSON_MEDIA],
    produces: [JSON_MEDIA],
    securityDefinitions,
    security: document.security ?? [],
    paths,
    definitions: Object.fromEntries(
      Object.entries((components.schemas ?? {}) as Node).map(([name, schema]) => [name, schema20(schema)]),
    ),
    ...(document.tags ? { tags: document.tags } : {}),
  };
}

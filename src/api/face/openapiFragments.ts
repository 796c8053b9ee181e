/** Small pieces of an OpenAPI document every part of the generator uses. */
import type { ModelDefinition } from '../../models/modelDefinition.js';

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
export const json = (schema: Schema) => ({ 'application/json': { schema } });

/** `next` and `previous` of a list page: full links, each with both `limit` and `offset`. */
export function pageLinkSchemas(): Record<'next' | 'previous', Schema> {
  const link = (description: string): Schema => ({
    anyOf: [{ type: 'string', format: 'uri' }, { type: 'null' }],
    description,
  });
  return {
    next: link('The next page: the same query with limit and offset; null on the last page.'),
    previous: link(
      'The previous page: the same query with limit and offset (offset=0 for the first page); null on the first page.',
    ),
  };
}

/** The component of a related object's nested form: its own when the model is served, else the generic one. */
export function nestedRef(names: Map<string, string>, target: string | undefined): Schema {
  const name = target ? names.get(target) : undefined;
  return name ? ref(`Nested${name}`) : ref('NestedObject');
}

/** 'dcim_device_types', 'plugins_branching_branches': the prefix of a model's operation ids. */
export function operationPrefix(definition: ModelDefinition): string {
  return `${definition.app}_${definition.path}`.replace(/[-/]/g, '_');
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input',
  403: 'Authentication failed or permission denied',
  404: 'No such object (or not visible to the caller)',
  409: 'Refused: dependent objects exist or a conflicting change',
  412: 'If-Match precondition failed',
  413: 'Request body too large',
  415: 'The request body is not JSON',
};

/** The error responses of an operation: 400 with field errors, the others with `detail`. */
export function errorResponses(codes: number[]): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const code of codes) {
    out[String(code)] = {
      description: ERROR_TEXT[code],
      content: json(code === 400 ? ref('ValidationError') : ref('Error')),
    };
  }
  return out;
}

/**
 * NetBox 3.4's schema document (Swagger 2.0 at /api/docs/?format=openapi and
 * /api/swagger.json|yaml), converted once per process from the OpenAPI 3.0 document
 * (so it follows the registry like that one) and cached as text per base URL, the only
 * part that depends on the request (host, schemes, basePath).
 */
import { stringify as toYaml } from 'yaml';
import type { SchemaDocument } from './schemaDocument.js';
import { swaggerLocation, toSwagger20 } from './swagger20.js';

const MAX_CACHED = 16;
/** Any base URL: the conversion does not depend on it, only host, schemes and basePath do. */
const NEUTRAL_BASE = 'http://localhost';

export interface SwaggerDocument {
  document(baseUrl: string): Record<string, unknown>;
  json(baseUrl: string): string;
  yaml(baseUrl: string): string;
}

export function swaggerDocument(schema: SchemaDocument, apiVersion: string): SwaggerDocument {
  let converted: Record<string, unknown> | null = null;
  const texts = new Map<string, string>();
  const document = (baseUrl: string) => {
    converted ??= toSwagger20(schema.document(NEUTRAL_BASE, '3.0'), { baseUrl: NEUTRAL_BASE, apiVersion });
    return { ...converted, ...swaggerLocation(baseUrl) };
  };
  const cached = (key: string, make: () => string) => {
    let text = texts.get(key);
    if (text === undefined) {
      if (texts.size >= MAX_CACHED) texts.delete(texts.keys().next().value!);
      texts.set(key, (text = make()));
    }
    return text;
  };
  return {
    document,
    json: (baseUrl) => cached(`json ${baseUrl}`, () => JSON.stringify(document(baseUrl))),
    yaml: (baseUrl) => cached(`yaml ${baseUrl}`, () => toYaml(document(baseUrl), { aliasDuplicateObjects: false, lineWidth: 0 })),
  };
}

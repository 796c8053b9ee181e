/**
 * NetBox 3.4's schema document (Swagger 2.0 at /api/docs/?format=openapi and
 * /api/swagger.json|yaml), converted once per process from the OpenAPI 3.0 document
 * (so it follows the registry like that one) and cached as text per base URL, the only
 * part that depends on the request (host, schemes, basePath).
 */
import { documentTexts } from './documentTexts.js';
import type { SchemaDocument } from './schemaDocument.js';
import { swaggerLocation, toSwagger20 } from './swagger20.js';

/** Any base URL: the conversion does not depend on it, only host, schemes and basePath do. */
const NEUTRAL_BASE = 'http://localhost';

export interface SwaggerDocument {
  document(baseUrl: string): Record<string, unknown>;
  json(baseUrl: string): string;
  yaml(baseUrl: string): string;
}

export function swaggerDocument(schema: SchemaDocument, apiVersion: string): SwaggerDocument {
  let converted: Record<string, unknown> | null = null;
  const texts = documentTexts();
  const document = (baseUrl: string) => {
    converted ??= toSwagger20(schema.document(NEUTRAL_BASE, '3.0'), { baseUrl: NEUTRAL_BASE, apiVersion });
    return { ...converted, ...swaggerLocation(baseUrl) };
  };
  return {
    document,
    json: (baseUrl) => texts.json(baseUrl, () => document(baseUrl)),
    yaml: (baseUrl) => texts.yaml(baseUrl, () => document(baseUrl)),
  };
}

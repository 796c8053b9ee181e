/**
 * The OpenAPI document, generated once per process from the registry (lazily, so the
 * query compiler's parameters registered at start-up are in it) and cached as text per
 * base URL (the only part that depends on the request: `servers`). Served as OpenAPI
 * 3.0.3 by default (NetBox's own dialect since 3.5, the one client generators and
 * Swagger UI handle best) and as OpenAPI 3.1 on request.
 */
import { readFileSync } from 'node:fs';

import type { Services } from '../Services.js';
import { documentTexts } from './documentTexts.js';
import type { DescribesFilters } from './filters.js';
import { buildOpenApi } from './openapi.js';
import { toOpenApi30 } from './openapi30.js';

export type OpenApiVersion = '3.0' | '3.1';

export function serviceVersion(): string {
  try {
    return String(JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version);
  } catch {
    return '0.0.0';
  }
}

export interface SchemaDocument {
  document(baseUrl: string, version?: OpenApiVersion): Record<string, unknown>;
  json(baseUrl: string, version?: OpenApiVersion): string;
  yaml(baseUrl: string, version?: OpenApiVersion): string;
}

export function schemaDocument(services: Services): SchemaDocument {
  const bases = new Map<OpenApiVersion, Record<string, unknown>>();
  const texts = documentTexts();
  const base = (version: OpenApiVersion) => {
    let doc = bases.get(version);
    if (!doc) {
      const v31 =
        bases.get('3.1') ??
        buildOpenApi(services.registry, {
          version: serviceVersion(),
          apiVersion: services.config.apiVersion,
          compiler: services.queries as DescribesFilters,
          changeLog: services.audit !== undefined,
          branching: services.branches !== undefined,
        });
      bases.set('3.1', v31);
      doc = version === '3.1' ? v31 : toOpenApi30(v31);
      bases.set(version, doc);
    }
    return doc;
  };
  const document = (baseUrl: string, version: OpenApiVersion = '3.0') => ({
    ...base(version),
    servers: [{ url: baseUrl }],
  });
  return {
    document,
    json: (baseUrl, version = '3.0') => texts.json(`${version} ${baseUrl}`, () => document(baseUrl, version)),
    yaml: (baseUrl, version = '3.0') => texts.yaml(`${version} ${baseUrl}`, () => document(baseUrl, version)),
  };
}

/**
 * The OpenAPI 3.1 document of the API, generated from the model registry: every list
 * and detail path with its methods, every list parameter (filters with their lookups,
 * ordering, limit/offset, brief, exclude, fields), request bodies (the ajv write schemas
 * of the write side, with relations spelled out), responses in the complete, brief and
 * nested forms, the list envelope and the error shapes, the detail actions models
 * declare (available-ips ...), and the `Authorization: Token` security scheme. The
 * parts are built by the openapi* modules beside this one.
 */
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import type { DescribesFilters } from './filters.js';
import { branchHeaderParameter, branchPaths, branchSchemas, withBranchHeader } from './openapiBranches.js';
import { changeLogPaths, changeLogSchemas } from './openapiChangeLog.js';
import { commonParameters, commonSchemas } from './openapiCommon.js';
import { detailActionPaths, detailActionSchemas } from './openapiDetailActions.js';
import { detailViewPaths } from './openapiDetailViews.js';
import { nestedRef, type Schema } from './openapiFragments.js';
import { modelPaths } from './openapiModelPaths.js';
import { modelSchemas } from './openapiModelSchemas.js';
import { statusPaths, tokenProvisionPaths, userConfigPaths } from './openapiServicePaths.js';
import { shareChoices, shareParameters } from './openapiSharing.js';
import { modelViewName } from './views.js';

export interface OpenApiOptions {
  /** Service version (info.version). */
  version: string;
  apiVersion: string;
  compiler?: DescribesFilters;
  /** The change log is served (/api/extras/object-changes/, from the event log). */
  changeLog?: boolean;
  /** netbox-branching's API is served (/api/plugins/branching/, the X-NetBox-Branch header). */
  branching?: boolean;
}

/**
 * 'IP address' → 'IPAddress'; unique across the registry. On a clash (a VM interface's
 * verbose name is 'interface' too) the model whose own name is the plain name keeps it,
 * so existing clients' 'Interface' stays; the others are prefixed with their app.
 */
export function componentNames(registry: ModelRegistry): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Map<string, number>();
  const base = (d: ModelDefinition) => modelViewName(d).replace(/[^A-Za-z0-9]/g, '');
  for (const d of registry.all()) taken.set(base(d), (taken.get(base(d)) ?? 0) + 1);
  for (const d of registry.all()) {
    const name = base(d);
    const unique = (taken.get(name) ?? 0) <= 1 || d.model === name.toLowerCase();
    names.set(d.key, unique ? name : `${d.app[0].toUpperCase()}${d.app.slice(1)}${name}`);
  }
  return names;
}

/** Builds the whole document (without `servers`, which depends on the request). */
export function buildOpenApi(registry: ModelRegistry, options: OpenApiOptions): Record<string, unknown> {
  const names = componentNames(registry);
  const nested = (target: string | undefined) => nestedRef(names, target);
  const schemas: Record<string, Schema> = commonSchemas();
  const paths: Record<string, Schema> = {};
  for (const definition of registry.all()) {
    const name = names.get(definition.key)!;
    Object.assign(schemas, modelSchemas(definition, name, nested));
    const own = {
      ...modelPaths(registry, definition, name, options.compiler),
      ...detailActionPaths(registry, definition, names),
      ...detailViewPaths(definition),
    };
    // Only the registry's models are read and written inside a branch (branchHeader.ts).
    if (options.branching) withBranchHeader(own);
    Object.assign(paths, own);
    Object.assign(schemas, detailActionSchemas(registry, definition, names, nested));
  }
  Object.assign(paths, tokenProvisionPaths(names));
  Object.assign(paths, userConfigPaths(names));
  if (options.changeLog) {
    Object.assign(schemas, changeLogSchemas(names));
    Object.assign(paths, changeLogPaths(registry));
  }
  if (options.branching) {
    Object.assign(schemas, branchSchemas(nested));
    Object.assign(paths, branchPaths(registry));
  }
  Object.assign(paths, statusPaths());
  const parameters = commonParameters();
  if (options.branching) parameters.branch = branchHeaderParameter();
  shareChoices(registry, names, { paths, parameters }, schemas);
  shareParameters(paths, parameters);
  const apps = [...new Set(registry.all().map((d) => d.app))];
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
    tags: [
      ...apps.map((app) => ({ name: app })),
      ...(options.branching ? [{ name: 'plugins' }] : []),
      { name: 'status' },
    ],
    paths,
    components: {
      schemas,
      parameters,
      securitySchemes: {
        tokenAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            'The word Token, one space, and the API token: `Token 0123456789abcdef0123456789abcdef01234567`.',
        },
      },
    },
    security: [{ tokenAuth: [] }],
  };
}

import { Validator } from '@seriousme/openapi-schema-validator';
import test from 'ava';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import { filterSetOf } from '../../src/api/query/filterSet.js';
import { registry } from '../../src/models/registry.js';
import { startService, type TestService } from '../support/startService.js';
import { raw } from './helpers.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Fetched = Awaited<ReturnType<typeof raw>>;
let shared: Promise<{ service: TestService; doc: any; doc31: any; variants: Record<string, Fetched> }> | null = null;
/** One service and every variant of the document, fetched before the tests' heavy synchronous work. */
function fixture() {
  shared ??= (async () => {
    const service = await startService();
    const response = await raw(service, 'GET', '/api/schema/?format=json');
    const variants: Record<string, Fetched> = {};
    variants.yaml = await raw(service, 'GET', '/api/schema/?format=yaml');
    variants.byAccept = await raw(service, 'GET', '/api/schema/', { Accept: 'application/json' });
    variants.docs = await raw(service, 'GET', '/api/docs/?format=openapi');
    variants.xml = await raw(service, 'GET', '/api/schema/?format=xml');
    const v31 = await raw(service, 'GET', '/api/schema/?format=json&openapi=3.1');
    return { service, doc: JSON.parse(response.text), doc31: JSON.parse(v31.text), variants };
  })();
  return shared;
}
/** An operation's parameters with references to components.parameters resolved. */
function parametersOf(doc: any, operation: any): any[] {
  return (operation.parameters ?? []).map((p: any) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p));
}

test.after.always(async () => {
  if (shared) await (await shared).service.close();
});

test('the document validates as OpenAPI 3.0.3 (the default) and as OpenAPI 3.1 with a maintained validator', async (t) => {
  const { doc, doc31 } = await fixture();
  t.is(doc.openapi, '3.0.3');
  t.is(doc31.openapi, '3.1.0');
  for (const [document, version] of [[doc, '3.0'], [doc31, '3.1']] as const) {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    t.true(result.valid, `${version}: ${JSON.stringify(result.errors)?.slice(0, 2000)}`);
    t.is(validator.version, version);
  }
  t.deepEqual(Object.keys(doc.paths), Object.keys(doc31.paths));
});

test('every $ref resolves in both versions; the 3.1 component schemas compile as JSON Schema 2020-12', async (t) => {
  const { doc: doc30, doc31: doc } = await fixture();
  const refs = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') refs.add(value);
        else walk(value);
      }
    }
  };
  for (const document of [doc, doc30]) {
    refs.clear();
    walk(document);
    for (const ref of refs) {
      const target = ref.replace(/^#\//, '').split('/').reduce<any>((node, part) => node?.[part], document);
      t.truthy(target, ref);
    }
  }
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const [name, schema] of Object.entries<any>(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
  const compiled = ajv.compile({ $defs: {}, anyOf: Object.keys(doc.components.schemas).map((name) => ({ $ref: `#/components/schemas/${name}` })) });
  t.is(typeof compiled, 'function');
});

test('every model has its list and detail paths with its methods, operation ids and schemas', async (t) => {
  const { doc } = await fixture();
  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      t.false(operationIds.has(item[method].operationId), item[method].operationId);
      operationIds.add(item[method].operationId);
    }
    t.true(path.endsWith('/'), path);
  }
  for (const definition of registry.all()) {
    const list = doc.paths[`/api/${definition.app}/${definition.path}/`];
    const detail = doc.paths[`/api/${definition.app}/${definition.path}/{id}/`];
    t.truthy(list, definition.key);
    t.truthy(detail, definition.key);
    const prefix = `${definition.app}_${definition.path.replace(/-/g, '_')}`;
    t.is(list.get.operationId, `${prefix}_list`);
    t.is(detail.get.operationId, `${prefix}_read`);
    if (!definition.readOnly) {
      t.deepEqual(
        [list.post, list.put, list.patch, list.delete].map((o) => o.operationId),
        [`${prefix}_create`, `${prefix}_bulk_update`, `${prefix}_bulk_partial_update`, `${prefix}_bulk_delete`],
      );
      t.deepEqual([detail.put, detail.patch, detail.delete].map((o) => o.operationId), [`${prefix}_update`, `${prefix}_partial_update`, `${prefix}_delete`]);
      t.truthy(list.post.requestBody.content['application/json'].schema);
      t.truthy(list.post.responses['400']);
    } else {
      t.falsy(list.post);
    }
    const page = list.get.responses['200'].content['application/json'].schema.$ref.split('/').pop();
    t.deepEqual(doc.components.schemas[page].required, ['count', 'next', 'previous', 'results']);
  }
  // endpoints beyond the model routes
  t.truthy(doc.paths['/api/extras/object-changes/'].get);
  t.truthy(doc.paths['/api/extras/object-changes/{id}/'].get);
  t.falsy(doc.paths['/api/extras/object-changes/'].post, 'the change log is read-only');
  t.deepEqual(doc.paths['/api/users/tokens/provision/'].post.security, [], 'provisioning needs no token');
  t.truthy(doc.paths['/api/status/'].get);
});

test('every filter of the list query compiler is a parameter, with each of its lookups, plus paging and brief', async (t) => {
  const { doc } = await fixture();
  let total = 0;
  for (const definition of registry.all()) {
    const names = new Set(parametersOf(doc, doc.paths[`/api/${definition.app}/${definition.path}/`].get).map((p) => p.name));
    for (const name of ['limit', 'offset', 'ordering', 'brief', 'exclude', 'fields']) t.true(names.has(name), `${definition.key} ${name}`);
    for (const [name, filter] of filterSetOf(registry, definition)) {
      t.true(names.has(name), `${definition.key}: ${name}`);
      for (const lookup of filter.lookups) t.true(names.has(`${name}__${lookup}`), `${definition.key}: ${name}__${lookup}`);
      total += 1 + filter.lookups.size;
    }
  }
  t.true(total > 500, `only ${total} filters`);
  // a sample of NetBox's names
  const sites = parametersOf(doc, doc.paths['/api/dcim/sites/'].get).map((p: any) => p.name);
  for (const name of ['name__ic', 'status', 'status__n', 'region_id', 'tag', 'q', 'id__gte']) t.true(sites.includes(name), name);
});

test('the documented filters are the ones the list compiler reacts to', async (t) => {
  const { service, doc } = await fixture();
  const sample = (schema: any, kind: string | undefined): string => {
    if (kind === 'network') return '10.0.0.0/8';
    if (schema.enum) return String(schema.enum[0]);
    if (schema.anyOf) return '1';
    if (schema.type === 'integer' || schema.type === 'number') return '1';
    if (schema.type === 'boolean') return 'true';
    if (schema.format === 'date') return '2024-01-02';
    if (schema.format === 'date-time') return '2024-01-02T03:04:05Z';
    if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
    return 'x';
  };
  const ctx = { state: { readStore: service.services.store }, query: {}, get: () => '' } as any;
  let probed = 0;
  for (const definition of registry.all()) {
    const filters = filterSetOf(registry, definition);
    const parameters = parametersOf(doc, doc.paths[`/api/${definition.app}/${definition.path}/`].get).filter(
      (p: any) => !['limit', 'offset', 'ordering', 'brief', 'exclude', 'fields'].includes(p.name),
    );
    for (const parameter of parameters) {
      const base = parameter.name.includes('__') ? parameter.name.slice(0, parameter.name.lastIndexOf('__')) : parameter.name;
      const kind = (filters.get(parameter.name) ?? filters.get(base))?.kind;
      const schema = parameter.schema.type === 'array' ? parameter.schema.items : parameter.schema;
      const query = new URLSearchParams([[parameter.name, sample(schema, kind)]]);
      let reacted: boolean;
      try {
        reacted = JSON.stringify(await service.services.queries.compile(definition, query, ctx)) !== '{}';
      } catch {
        reacted = true; // refused the value: it is a filter
      }
      // methods and search may read a value as "no filtering"; resolver parameters answer elsewhere (e.g. as_of)
      if (kind === 'method' || kind === 'search' || kind === undefined) continue;
      t.true(reacted, `${definition.key}: ${parameter.name}`);
      probed++;
    }
  }
  t.true(probed > 500);
});

test('YAML and JSON are the same document; NetBox 3.4 names serve it too; security is Authorization: Token', async (t) => {
  const { service, doc, variants } = await fixture();
  const yaml = variants.yaml;
  t.is(yaml.status, 200);
  t.regex(yaml.headers.get('content-type') ?? '', /^application\/yaml/);
  // (compared as JSON text: ava's deep comparison of a megabyte document takes seconds)
  const text = JSON.stringify(doc);
  t.true(JSON.stringify(parseYaml(yaml.text)) === text);
  t.true(JSON.stringify(JSON.parse(variants.byAccept.text)) === text);
  t.true(JSON.stringify(JSON.parse(variants.docs.text)) === text);
  t.is(variants.xml.status, 404);
  t.deepEqual(doc.components.securitySchemes.tokenAuth, {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: doc.components.securitySchemes.tokenAuth.description,
  });
  t.deepEqual(doc.security, [{ tokenAuth: [] }]);
  t.is(doc.servers[0].url, service.url);
  for (const name of ['Error', 'ValidationError', 'BulkValidationError', 'Site', 'BriefSite', 'NestedSite', 'WritableSite', 'PatchedWritableSite', 'PaginatedSiteList']) {
    t.truthy(doc.components.schemas[name], name);
  }
  t.deepEqual(doc.components.schemas.WritableSite.required, ['name', 'slug']);
  t.deepEqual(doc.components.schemas.Site.properties.region.allOf, [{ $ref: '#/components/schemas/NestedRegion' }]);
  t.true(doc.components.schemas.Site.properties.region.nullable);
  t.is(doc.components.schemas.Site.properties.status.properties.value.$ref, '#/components/schemas/SiteStatusChoices');
  t.deepEqual(doc.components.schemas.SiteStatusChoices.enum, ['planned', 'staging', 'active', 'decommissioning', 'retired']);
});

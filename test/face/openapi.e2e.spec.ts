import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import test from 'ava';
import { parse as parseYaml } from 'yaml';

import { BRANCH_SHAPE } from '../../src/api/branches/branchMetadata.js';
import { componentNames } from '../../src/api/face/openapi.js';
import { filterSetOf, isLenient } from '../../src/api/query/filterSet.js';
import { writableFields } from '../../src/commands/writeSchema.js';
import { registry } from '../../src/models/registry.js';
import { raw } from '../support/rawRequests.js';
import { startService, type TestService } from '../support/startService.js';

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
  return (operation.parameters ?? []).map((p: any) =>
    p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p,
  );
}

test.after.always(async () => {
  if (shared) await (await shared).service.close();
});

/** A list request's parameters as the query layer sees them, from a caller who may read everything. */
const unrestrictedRequest = (parameters: URLSearchParams) => ({
  parameters,
  requesterId: null,
  viewScope: async () => ({}),
});

test('the document validates as OpenAPI 3.0.3 (the default) and as OpenAPI 3.1 with a maintained validator', async (t) => {
  const { doc, doc31 } = await fixture();
  t.is(doc.openapi, '3.0.3');
  t.is(doc31.openapi, '3.1.0');
  for (const [document, version] of [
    [doc, '3.0'],
    [doc31, '3.1'],
  ] as const) {
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
      const target = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<any>((node, part) => node?.[part], document);
      t.truthy(target, ref);
    }
  }
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const [name, schema] of Object.entries<any>(doc.components.schemas))
    ajv.addSchema(schema, `#/components/schemas/${name}`);
  const compiled = ajv.compile({
    $defs: {},
    anyOf: Object.keys(doc.components.schemas).map((name) => ({ $ref: `#/components/schemas/${name}` })),
  });
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
      t.deepEqual(
        [detail.put, detail.patch, detail.delete].map((o) => o.operationId),
        [`${prefix}_update`, `${prefix}_partial_update`, `${prefix}_delete`],
      );
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
    const names = new Set(
      parametersOf(doc, doc.paths[`/api/${definition.app}/${definition.path}/`].get).map((p) => p.name),
    );
    for (const name of ['limit', 'offset', 'ordering', 'brief', 'exclude', 'fields'])
      t.true(names.has(name), `${definition.key} ${name}`);
    for (const [name, filter] of filterSetOf(registry, definition)) {
      t.true(names.has(name), `${definition.key}: ${name}`);
      for (const lookup of filter.lookups)
        t.true(names.has(`${name}__${lookup}`), `${definition.key}: ${name}__${lookup}`);
      total += 1 + filter.lookups.size;
    }
  }
  t.true(total > 500, `only ${total} filters`);
  // a sample of NetBox's names
  const sites = parametersOf(doc, doc.paths['/api/dcim/sites/'].get).map((p: any) => p.name);
  for (const name of ['name__ic', 'status', 'status__n', 'region_id', 'tag', 'q', 'id__gte'])
    t.true(sites.includes(name), name);
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
  let probed = 0;
  for (const definition of registry.all()) {
    const filters = filterSetOf(registry, definition);
    const parameters = parametersOf(doc, doc.paths[`/api/${definition.app}/${definition.path}/`].get).filter(
      (p: any) => !['limit', 'offset', 'ordering', 'brief', 'exclude', 'fields'].includes(p.name),
    );
    for (const parameter of parameters) {
      const base = parameter.name.includes('__')
        ? parameter.name.slice(0, parameter.name.lastIndexOf('__'))
        : parameter.name;
      const filter = filters.get(parameter.name) ?? filters.get(base);
      const kind = filter?.kind;
      const lookup = filters.has(parameter.name) ? 'exact' : parameter.name.slice(base.length + 2);
      const schema = parameter.schema.type === 'array' ? parameter.schema.items : parameter.schema;
      const query = new URLSearchParams([[parameter.name, sample(schema, kind)]]);
      let reacted: boolean;
      try {
        reacted =
          JSON.stringify(
            await service.services.queries.compile(definition, unrestrictedRequest(query), service.services.store),
          ) !== '{}';
      } catch {
        reacted = true; // refused the value: it is a filter
      }
      // methods and search may read a value as "no filtering", and so does a filter NetBox lacks given a value
      // it cannot use; resolver parameters answer elsewhere (e.g. as_of)
      if (kind === 'method' || kind === 'search' || kind === undefined || isLenient(filter!, lookup)) continue;
      t.true(reacted, `${definition.key}: ${parameter.name}`);
      probed++;
    }
  }
  t.true(probed > 500);
});

test('YAML and JSON are the same document; security is Authorization: Token', async (t) => {
  const { service, doc, variants } = await fixture();
  const yaml = variants.yaml;
  t.is(yaml.status, 200);
  t.regex(yaml.headers.get('content-type') ?? '', /^application\/yaml/);
  // (compared as JSON text: ava's deep comparison of a megabyte document takes seconds)
  const text = JSON.stringify(doc);
  t.true(JSON.stringify(parseYaml(yaml.text)) === text);
  t.true(JSON.stringify(JSON.parse(variants.byAccept.text)) === text);
  // NetBox 3.4's /api/docs/?format=openapi is its Swagger 2.0 document (swaggerDocs.e2e.spec.ts)
  t.is(JSON.parse(variants.docs.text).swagger, '2.0');
  t.is(variants.xml.status, 404);
  t.deepEqual(doc.components.securitySchemes.tokenAuth, {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: doc.components.securitySchemes.tokenAuth.description,
  });
  t.deepEqual(doc.security, [{ tokenAuth: [] }]);
  t.is(doc.servers[0].url, service.url);
  for (const name of [
    'Error',
    'ValidationError',
    'BulkValidationError',
    'Site',
    'BriefSite',
    'NestedSite',
    'WritableSite',
    'PatchedWritableSite',
    'PaginatedSiteList',
  ]) {
    t.truthy(doc.components.schemas[name], name);
  }
  t.deepEqual(doc.components.schemas.WritableSite.required, ['name', 'slug']);
  t.deepEqual(doc.components.schemas.Site.properties.region.allOf, [{ $ref: '#/components/schemas/NestedRegion' }]);
  t.true(doc.components.schemas.Site.properties.region.nullable);
  t.is(doc.components.schemas.Site.properties.status.properties.value.$ref, '#/components/schemas/SiteStatusChoices');
  t.deepEqual(doc.components.schemas.SiteStatusChoices.enum, [
    'planned',
    'staging',
    'active',
    'decommissioning',
    'retired',
  ]);
});

/** Validates a value against a schema that may refer to the components of the 3.1 document. */
function documentValidator(doc: any): (schema: object, value: unknown) => string | null {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ $id: 'netledger-openapi', components: { schemas: doc.components.schemas } });
  const retarget = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(retarget);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' ? `netledger-openapi${v}` : retarget(v),
      ]),
    );
  };
  return (schema, value) => {
    const validate = ajv.compile(retarget(schema) as object);
    return validate(value) ? null : JSON.stringify(validate.errors).slice(0, 1000);
  };
}

test("the allocation endpoints are documented from the models' detail actions", async (t) => {
  const { doc, doc31 } = await fixture();
  for (const path of [
    '/api/ipam/prefixes/{id}/available-prefixes/',
    '/api/ipam/prefixes/{id}/available-ips/',
    '/api/ipam/vlan-groups/{id}/available-vlans/',
  ]) {
    t.truthy(doc.paths[path]?.get, path);
    t.truthy(doc.paths[path]?.post, path);
  }
  const names = componentNames(registry);
  let actions = 0;
  for (const definition of registry.all()) {
    for (const action of definition.detailActions ?? []) {
      actions++;
      const { shape } = action.allocator;
      const path = `/api/${definition.app}/${definition.path}/{id}/${action.path}/`;
      const item = doc31.paths[path];
      t.truthy(item, path);
      // the id, then the X-NetBox-Branch header (a registry model's path is served inside a branch)
      t.deepEqual(item.parameters, [
        { $ref: '#/components/parameters/id' },
        { $ref: '#/components/parameters/branch' },
      ]);
      const operation = `${definition.app}_${definition.path.replace(/-/g, '_')}_${action.path.replace(/-/g, '_')}`;
      t.is(item.get.operationId, `${operation}_list`);
      t.is(item.post.operationId, `${operation}_create`);
      // GET: an array of entries with exactly the keys the allocator declares; limit where it is honoured
      const entryRef = item.get.responses['200'].content['application/json'].schema.items.$ref;
      t.deepEqual(doc31.components.schemas[entryRef.split('/').pop()].required, Object.keys(shape.entry), path);
      t.is(
        parametersOf(doc31, item.get).some((p: any) => p.name === 'limit'),
        shape.limited,
        `${path} limit`,
      );
      // POST: one request or an array of them; what the allocator assigns is not asked for, its own values are
      const [one, many] = item.post.requestBody.content['application/json'].schema.anyOf;
      t.deepEqual(many.items, one);
      const request = doc31.components.schemas[one.$ref.split('/').pop()];
      for (const name of shape.assigned) t.false(name in request.properties, `${path} ${name}`);
      for (const field of shape.extra ?? []) t.truthy(request.properties[field.name], `${path} ${field.name}`);
      if (shape.fields) t.deepEqual(Object.keys(request.properties).sort(), [...shape.fields].sort(), path);
      const created = item.post.responses['201'].content['application/json'].schema.anyOf;
      t.deepEqual(created, [
        { $ref: `#/components/schemas/${names.get(action.creates)}` },
        { type: 'array', items: { $ref: `#/components/schemas/${names.get(action.creates)}` } },
      ]);
      for (const code of ['400', '403', '404', '409']) t.truthy(item.post.responses[code], `${path} ${code}`);
    }
  }
  t.is(actions, 4, "a prefix's two, a VLAN group's and an IP range's");
  const prefixes = doc31.components.schemas.PrefixAvailablePrefixesRequest;
  t.deepEqual(prefixes.required, ['prefix_length']);
  t.false('prefix' in prefixes.properties);
  t.deepEqual(doc31.components.schemas.VLANGroupAvailableVlansRequest.required, ['name']);
  t.is(doc31.components.schemas.PrefixAvailableIpsRequest.required, undefined, "the address is the server's choice");
});

test('what the allocation endpoints and the contract forms answer matches the document', async (t) => {
  const { service, doc31 } = await fixture();
  const check = documentValidator(doc31);
  const operation = (path: string, method: string) => doc31.paths[path][method];
  const body = (op: any, status: string) => op.responses[status].content['application/json'].schema;
  const must = async (method: string, path: string, payload?: unknown) => {
    const response = await service.api(method, path, payload);
    t.true(response.status < 300, `${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const vrf = await must('POST', '/api/ipam/vrfs/', { name: 'alloc-doc' });
  const prefix = await must('POST', '/api/ipam/prefixes/', { prefix: '10.77.0.0/24', vrf: vrf.id });
  const group = await must('POST', '/api/ipam/vlan-groups/', {
    name: 'alloc-doc',
    slug: 'alloc-doc',
    min_vid: 10,
    max_vid: 20,
  });
  const range = await must('POST', '/api/ipam/ip-ranges/', {
    start_address: '10.78.0.10/24',
    end_address: '10.78.0.20/24',
    vrf: vrf.id,
  });
  const cases: Array<[string, string, unknown]> = [
    [
      '/api/ipam/ip-ranges/{id}/available-ips/',
      `/api/ipam/ip-ranges/${range.id}/available-ips/`,
      { description: 'from a range' },
    ],
    [
      '/api/ipam/prefixes/{id}/available-ips/',
      `/api/ipam/prefixes/${prefix.id}/available-ips/`,
      [{ description: 'a' }, { status: 'reserved' }],
    ],
    [
      '/api/ipam/prefixes/{id}/available-prefixes/',
      `/api/ipam/prefixes/${prefix.id}/available-prefixes/`,
      { prefix_length: 28 },
    ],
    [
      '/api/ipam/vlan-groups/{id}/available-vlans/',
      `/api/ipam/vlan-groups/${group.id}/available-vlans/`,
      { name: 'users' },
    ],
  ];
  for (const [documented, path, request] of cases) {
    const listing = await must('GET', `${path}?limit=3`);
    t.true(listing.length > 0, path);
    t.is(check(body(operation(documented, 'get'), '200'), listing), null, `GET ${path}`);
    t.is(
      check(operation(documented, 'post').requestBody.content['application/json'].schema, request),
      null,
      `request of ${path}`,
    );
    t.is(check(body(operation(documented, 'post'), '201'), await must('POST', path, request)), null, `POST ${path}`);
  }
  const refused = await service.api('POST', `/api/ipam/prefixes/${prefix.id}/available-prefixes/`, [
    { prefix_length: 40 },
  ]);
  t.is(refused.status, 400);
  t.is(check(body(operation('/api/ipam/prefixes/{id}/available-prefixes/', 'post'), '400'), refused.body), null);
  // the contract's fields: a VLAN's display_name, a nested device's, a nested interface's cable and connection_status
  const vlan = (await must('GET', '/api/ipam/vlans/?limit=1')).results[0];
  t.is(check({ $ref: '#/components/schemas/VLAN' }, vlan), null);
  t.is(doc31.components.schemas.VLAN.properties.display_name.type, 'string');
  t.deepEqual(doc31.components.schemas.BriefVLAN.required, ['id', 'url', 'display', 'display_name', 'vid', 'name']);
  t.deepEqual(doc31.components.schemas.NestedDevice.required, ['id', 'url', 'display', 'display_name', 'name']);
  t.deepEqual(doc31.components.schemas.NestedInterface.required, [
    'id',
    'url',
    'display',
    'device',
    'name',
    'cable',
    'connection_status',
    '_occupied',
  ]);
  t.true(doc31.components.schemas.NestedInterface.properties.connection_status.readOnly);
});

test("brief forms document a field under the name clients read; the caller's preferences are documented", async (t) => {
  const { service, doc31 } = await fixture();
  const check = documentValidator(doc31);
  const brief = doc31.components.schemas.BriefFHRPGroupAssignment;
  t.truthy(brief.properties.group_id, 'group_id in the brief form');
  t.falsy(brief.properties.group);
  t.true(brief.required.includes('group_id'));
  const config = doc31.paths['/api/users/config/'];
  t.truthy(config?.get && config?.patch);
  const answered = await service.api('GET', '/api/users/config/');
  t.is(answered.status, 200);
  t.is(check(config.get.responses['200'].content['application/json'].schema, answered.body), null);
});

test("netbox-branching's API is documented, its Branch components from the branch's declared shape", async (t) => {
  const { service, doc, doc31 } = await fixture();
  const base = '/api/plugins/branching/';
  const methods = (path: string) => METHODS.filter((m) => doc.paths[path]?.[m]);
  t.deepEqual(methods(`${base}branches/`), ['get', 'post']);
  t.deepEqual(methods(`${base}branches/{id}/`), ['get', 'put', 'delete', 'patch']);
  for (const action of ['sync', 'merge', 'revert', 'archive']) {
    const post = doc.paths[`${base}branches/{id}/${action}/`]?.post;
    t.is(post?.operationId, `plugins_branching_branches_${action}`);
    t.is(post.requestBody.content['application/json'].schema.$ref, '#/components/schemas/BranchActionRequest');
  }
  t.deepEqual(methods(`${base}changes/`), ['get']);
  t.deepEqual(methods(`${base}branch-events/`), ['get']);
  t.is(doc.paths[`${base}branches/`].get.operationId, 'plugins_branching_branches_list');
  t.deepEqual(doc.components.schemas.BranchActionRequest.properties.commit.type, 'boolean');

  // The components are the declaration's: every rendered field, the writable ones in the request bodies.
  const shown = BRANCH_SHAPE.fields.map((f) => f.name);
  t.deepEqual(Object.keys(doc.components.schemas.Branch.properties), shown);
  const writable = writableFields(BRANCH_SHAPE).map((f) => f.name);
  t.deepEqual(Object.keys(doc.components.schemas.WritableBranch.properties), writable);
  t.deepEqual(doc.components.schemas.WritableBranch.required, ['name']);
  t.deepEqual(Object.keys(doc.components.schemas.PatchedWritableBranch.properties), writable);
  t.is(doc.components.schemas.WritableBranch.properties.name.maxLength, 100);

  // The list: paging and every filter of the branch's filter set.
  const names = parametersOf(doc, doc.paths[`${base}branches/`].get).map((p) => p.name);
  for (const [filter, declared] of filterSetOf(registry, BRANCH_SHAPE)) {
    t.true(names.includes(filter), filter);
    for (const lookup of declared.lookups) t.true(names.includes(`${filter}__${lookup}`), `${filter}__${lookup}`);
  }
  for (const name of ['limit', 'offset', 'owner', 'owner_id', 'q', 'tag', 'last_sync__gte'])
    t.true(names.includes(name), name);

  // The header: a shared parameter on the models' paths, not on the plugin's.
  t.is(doc.components.parameters.branch.name, 'X-NetBox-Branch');
  t.is(doc.components.parameters.branch.in, 'header');
  const header = { $ref: '#/components/parameters/branch' };
  t.deepEqual(doc.paths['/api/dcim/devices/'].parameters, [header]);
  t.true(doc.paths['/api/dcim/devices/{id}/'].parameters.some((p: any) => p.$ref === header.$ref));
  t.is(doc.paths[`${base}branches/`].parameters, undefined);

  // What the plugin answers matches the document.
  const check = documentValidator(doc31);
  const schemaOf = (path: string, method: string, status: string) =>
    doc31.paths[path][method].responses[status].content['application/json'].schema;
  const created = await service.api('POST', `${base}branches/`, { name: 'openapi-doc', description: 'documented' });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.is(check(schemaOf(`${base}branches/`, 'post', '201'), created.body), null);
  const listed = await service.api('GET', `${base}branches/?name=openapi-doc`);
  t.is(check(schemaOf(`${base}branches/`, 'get', '200'), listed.body), null);
  t.is(listed.body.count, 1);
  const dry = await service.api('POST', `${base}branches/${created.body.id}/sync/`, { commit: false });
  t.is(dry.status, 200, JSON.stringify(dry.body));
  t.is(check(schemaOf(`${base}branches/{id}/sync/`, 'post', '200'), dry.body), null);
  await service.api(
    'POST',
    '/api/dcim/manufacturers/',
    { name: 'Branch Doc', slug: 'branch-doc' },
    {
      'X-NetBox-Branch': created.body.schema_id,
    },
  );
  const changes = await service.api('GET', `${base}changes/?branch_id=${created.body.id}`);
  t.is(changes.body.count, 1);
  t.is(check(schemaOf(`${base}changes/`, 'get', '200'), changes.body), null);
  const events = await service.api('GET', `${base}branch-events/?branch_id=${created.body.id}`);
  t.is(events.status, 200, JSON.stringify(events.body));
  t.is(check(schemaOf(`${base}branch-events/`, 'get', '200'), events.body), null);
});

import { Validator } from '@seriousme/openapi-schema-validator';
import test from 'ava';

import { buildOpenApi } from '../../src/api/face/openapi.js';
import { toOpenApi30 } from '../../src/api/face/openapi30.js';
import { toSwagger20 } from '../../src/api/face/swagger20.js';
import { registry } from '../../src/models/registry.js';

/** A small OpenAPI 3.0 document with each construct the generator emits. */
const SMALL = {
  openapi: '3.0.3',
  info: { title: 'T', version: '9.9.9', license: { name: 'Apache 2.0' } },
  paths: {
    '/api/dcim/devices/': {
      get: {
        operationId: 'dcim_devices_list',
        tags: ['dcim'],
        parameters: [
          { $ref: '#/components/parameters/limit' },
          {
            name: 'site',
            in: 'query',
            schema: { type: 'array', items: { type: 'string' } },
            style: 'form',
            explode: true,
          },
          {
            name: 'site_id',
            in: 'query',
            schema: { type: 'array', items: { anyOf: [{ type: 'integer' }, { enum: ['null'] }] } },
            style: 'form',
            explode: true,
          },
          {
            name: 'tenant_id',
            in: 'query',
            schema: { type: 'array', items: { type: 'integer' } },
            style: 'form',
            explode: false,
          },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        responses: {
          200: {
            description: 'A page',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/PaginatedDeviceList' } } },
          },
        },
      },
      post: {
        operationId: 'dcim_devices_create',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                anyOf: [
                  { $ref: '#/components/schemas/WritableDevice' },
                  { type: 'array', items: { $ref: '#/components/schemas/WritableDevice' } },
                ],
              },
            },
          },
        },
        responses: {
          201: {
            description: 'Created',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Device' } } },
          },
        },
      },
    },
    '/api/dcim/devices/{id}/': {
      parameters: [{ $ref: '#/components/parameters/id' }],
      get: {
        operationId: 'dcim_devices_read',
        responses: {
          200: {
            description: 'One',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Device' } } },
          },
        },
      },
    },
    '/api/dcim/racks/{id}/elevation/': {
      get: {
        operationId: 'dcim_racks_elevation',
        responses: { 200: { description: 'SVG', content: { 'image/svg+xml': { schema: { type: 'string' } } } } },
      },
    },
  },
  components: {
    parameters: {
      limit: { name: 'limit', in: 'query', description: 'Page size', schema: { type: 'integer', minimum: 0 } },
      id: { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
    },
    schemas: {
      Device: {
        type: 'object',
        properties: {
          id: { type: 'integer', readOnly: true },
          site: { allOf: [{ $ref: '#/components/schemas/NestedSite' }], nullable: true },
          status: { type: 'string', enum: ['active', 'offline', null], nullable: true },
          secret: { type: 'string', writeOnly: true },
        },
        required: ['id'],
      },
      NestedSite: { type: 'object', properties: { id: { type: 'integer' } } },
      WritableDevice: { type: 'object', properties: { site: { type: 'integer' } } },
      PaginatedDeviceList: {
        type: 'object',
        properties: { results: { type: 'array', items: { $ref: '#/components/schemas/Device' } } },
      },
    },
    securitySchemes: { tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization' } },
  },
  security: [{ tokenAuth: [] }],
};

test('swagger 2.0 with NetBox 3.4 version, host, schemes and basePath /api; paths lose the /api prefix', (t) => {
  const doc = toSwagger20(SMALL, { baseUrl: 'https://netbox.example.net', apiVersion: '3.4' });
  t.is(doc.swagger, '2.0');
  t.is(doc.info.version, '3.4');
  t.is(doc.info['x-service-version'], '9.9.9');
  t.like(doc, {
    host: 'netbox.example.net',
    schemes: ['https'],
    basePath: '/api',
    consumes: ['application/json'],
    produces: ['application/json'],
  });
  t.deepEqual(Object.keys(doc.paths), ['/dcim/devices/', '/dcim/devices/{id}/', '/dcim/racks/{id}/elevation/']);
  t.is(toSwagger20(SMALL, { baseUrl: 'http://127.0.0.1:8000/netbox/', apiVersion: '3.4' }).basePath, '/netbox/api');
  t.deepEqual(doc.securityDefinitions, { tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization' } });
  t.deepEqual(doc.security, [{ tokenAuth: [] }]);
  t.false('openapi' in doc || 'components' in doc || 'servers' in doc);
});

test('parameters are inline with name and in, their type on the parameter; exploded arrays are collectionFormat multi; cookies are dropped', (t) => {
  const doc = toSwagger20(SMALL, { baseUrl: 'http://x', apiVersion: '3.4' });
  t.deepEqual(doc.paths['/dcim/devices/'].get.parameters, [
    { name: 'limit', in: 'query', description: 'Page size', type: 'integer', minimum: 0 },
    { name: 'site', in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'multi' },
    // an id or the word null: text
    { name: 'site_id', in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'multi' },
    { name: 'tenant_id', in: 'query', type: 'array', items: { type: 'integer' }, collectionFormat: 'csv' },
  ]);
  t.deepEqual(doc.paths['/dcim/devices/{id}/'].parameters, [
    { name: 'id', in: 'path', required: true, type: 'integer' },
  ]);
  t.deepEqual(doc.paths['/dcim/devices/{id}/'].get.parameters, []);
});

test('request bodies become one body parameter named data; responses carry their schema; other media types are listed in produces', (t) => {
  const doc = toSwagger20(SMALL, { baseUrl: 'http://x', apiVersion: '3.4' });
  const create = doc.paths['/dcim/devices/'].post;
  t.deepEqual(create.parameters, [
    { name: 'data', in: 'body', required: true, schema: { $ref: '#/definitions/WritableDevice' } },
  ]);
  t.false('requestBody' in create);
  t.deepEqual(create.responses, { 201: { description: 'Created', schema: { $ref: '#/definitions/Device' } } });
  const elevation = doc.paths['/dcim/racks/{id}/elevation/'].get;
  t.deepEqual(elevation.produces, ['image/svg+xml']);
  t.deepEqual(elevation.responses[200].schema, { type: 'string' });
  t.false('produces' in doc.paths['/dcim/devices/'].get);
});

test('schemas become definitions: references rewritten, nullable as x-nullable, null left out of enums, writeOnly dropped', (t) => {
  const doc = toSwagger20(SMALL, { baseUrl: 'http://x', apiVersion: '3.4' });
  t.deepEqual(Object.keys(doc.definitions), ['Device', 'NestedSite', 'WritableDevice', 'PaginatedDeviceList']);
  t.deepEqual(doc.definitions.Device, {
    type: 'object',
    properties: {
      id: { type: 'integer', readOnly: true },
      site: { allOf: [{ $ref: '#/definitions/NestedSite' }], 'x-nullable': true },
      status: { type: 'string', enum: ['active', 'offline'], 'x-nullable': true },
      secret: { type: 'string' },
    },
    required: ['id'],
  });
  t.deepEqual(doc.definitions.PaginatedDeviceList.properties.results.items, { $ref: '#/definitions/Device' });
});

test('the document of the whole registry validates as Swagger 2.0; every reference resolves; every parameter is inline', async (t) => {
  const v30 = toOpenApi30(buildOpenApi(registry, { version: '0.0.0', apiVersion: '3.4' }));
  const doc = toSwagger20(v30, { baseUrl: 'http://127.0.0.1:8000', apiVersion: '3.4' });
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  t.true(result.valid, JSON.stringify(result.errors)?.slice(0, 2000));
  t.is(validator.version, '2.0');
  t.is(Object.keys(doc.paths).length, Object.keys(v30.paths as object).length);
  for (const path of Object.keys(doc.paths)) t.false(path.startsWith('/api/'), path);
  const refs = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref') refs.add(String(value));
        else walk(value);
      }
    }
  };
  walk(doc);
  for (const ref of refs) {
    t.regex(ref, /^#\/definitions\//);
    t.truthy(doc.definitions[ref.slice('#/definitions/'.length)], ref);
  }
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const parameters = method === 'parameters' ? operation : operation.parameters;
      for (const parameter of parameters)
        t.true(typeof parameter.name === 'string' && typeof parameter.in === 'string', `${method} ${path}`);
    }
  }
  const deviceParameters = doc.paths['/dcim/devices/'].get.parameters.map((p: { name: string }) => p.name);
  for (const name of ['limit', 'offset', 'site', 'status', 'tag']) t.true(deviceParameters.includes(name), name);
});

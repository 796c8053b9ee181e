/**
 * NetBox 3.4's schema addresses: /api/docs/?format=openapi and /api/swagger.json|yaml
 * answer Swagger 2.0 (what 3.4 clients parse), /api/docs/ is Swagger UI over it, while
 * /api/schema/ stays OpenAPI 3.
 */
import test from 'ava';
import { parse as parseYaml } from 'yaml';

import { pynetboxSkipReason, pynetboxVersion, runPynetbox } from '../support/pynetbox.js';
import { raw } from '../support/rawRequests.js';
import { startService } from '../support/startService.js';

test('/api/docs/?format=openapi is Swagger 2.0 for this host with basePath /api and info.version the API version of /api/status/, without a token', async (t) => {
  const service = await startService({ LOGIN_REQUIRED: 'true' });
  t.teardown(() => service.close());
  const docs = await raw(service, 'GET', '/api/docs/?format=openapi');
  t.is(docs.status, 200);
  t.is(docs.headers.get('content-type'), 'application/openapi+json');
  t.is(docs.headers.get('api-version'), '3.4');
  const doc = JSON.parse(docs.text);
  t.is(doc.swagger, '2.0');
  t.is(doc.host, new URL(service.url).host);
  t.deepEqual(doc.schemes, ['http']);
  t.is(doc.basePath, '/api');

  const status = await service.api('GET', '/api/status/');
  t.is(status.headers.get('api-version'), '3.4');
  t.is(status.body['netbox-version'], '3.4.10');
  t.is(doc.info.version, status.body['netbox-version'].split('.').slice(0, 2).join('.'));

  // what nb_inventory and its query_filters read
  const deviceParameters = doc.paths['/dcim/devices/'].get.parameters.map((p: { name: string }) => p.name);
  for (const name of ['site', 'role', 'status', 'tenant', 'platform', 'tag', 'has_primary_ip', 'limit'])
    t.true(deviceParameters.includes(name), name);
  t.true(
    doc.paths['/virtualization/virtual-machines/'].get.parameters.some((p: { name: string }) => p.name === 'cluster'),
  );

  // the same document at drf-yasg's other addresses
  const json = await raw(service, 'GET', '/api/swagger.json');
  t.is(json.headers.get('content-type'), 'application/json');
  t.true(json.text === docs.text);
  const yaml = await raw(service, 'GET', '/api/swagger.yaml');
  t.regex(yaml.headers.get('content-type') ?? '', /^application\/yaml/);
  t.true(JSON.stringify(parseYaml(yaml.text)) === docs.text);
  t.is((await raw(service, 'GET', '/api/docs/?format=xml')).status, 404);

  // OpenAPI 3 stays where it was
  t.is(JSON.parse((await raw(service, 'GET', '/api/schema/?format=json')).text).openapi, '3.0.3');

  // Swagger UI over the 2.0 document
  const page = await raw(service, 'GET', '/api/docs/');
  t.is(page.status, 200);
  t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.regex(page.text, /data-schema-url="\/api\/docs\/\?format=openapi"/);
  t.regex(page.text, /swagger-ui-bundle\.js/);
});

const PYNETBOX_SCRIPT = `
import json, sys, pynetbox
nb = pynetbox.api(sys.argv[1], token=sys.argv[2])
doc = nb.openapi()
status = nb.status()
print(json.dumps({"version": nb.version, "swagger": doc.get("swagger"), "info_version": doc["info"]["version"], "base_path": doc["basePath"], "netbox_version": status["netbox-version"]}))
`;

if (pynetboxVersion() === null) {
  test.skip(`pynetbox's openapi(), version and status() (skipped: ${pynetboxSkipReason()})`, () => {});
} else {
  test(`pynetbox ${pynetboxVersion()}: openapi() is the Swagger 2.0 document, version is 3.4, status() names 3.4.10`, async (t) => {
    const service = await startService();
    t.teardown(() => service.close());
    t.deepEqual(await runPynetbox(t, PYNETBOX_SCRIPT, service), {
      version: '3.4',
      swagger: '2.0',
      info_version: '3.4',
      base_path: '/api',
      netbox_version: '3.4.10',
    });
  });
}

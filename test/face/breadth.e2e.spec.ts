/**
 * The breadth of the API against NetBox 3.4: every endpoint of the reference catalogue,
 * plus the wireless app's three (NetBox 3.4 has it; the catalogue leaves it out), answers a
 * list GET with 200 in the shape NetBox gives it: a page, or a plain list where NetBox does
 * not paginate (reports, scripts). A model the registry serves is compared field by field
 * and filter by filter elsewhere (models.unit, referenceCoverage); this test is the census.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import test from 'ava';

import { startService } from '../support/startService.js';

const referenceDir =
  process.env.NETBOX_REFERENCE_DIR ?? fileURLToPath(new URL('../../../shared/reference/netbox-3.4/', import.meta.url));
const WIRELESS = [
  '/api/wireless/wireless-lan-groups/',
  '/api/wireless/wireless-lans/',
  '/api/wireless/wireless-links/',
];
/** Lists NetBox 3.4 answers without pagination. */
const UNPAGINATED = new Set(['/api/extras/reports/', '/api/extras/scripts/', '/api/plugins/installed-plugins/']);

function referencePaths(): string[] {
  const paths: string[] = [];
  for (const file of readdirSync(referenceDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const data = JSON.parse(readFileSync(`${referenceDir}/${file}`, 'utf8')) as { models?: Array<{ path?: string }> };
    for (const model of data.models ?? []) if (model.path) paths.push(model.path);
  }
  return paths;
}

test('every endpoint of NetBox 3.4 (the reference catalogue and the wireless app) answers its list', async (t) => {
  if (!existsSync(referenceDir)) {
    t.log(`skipped: the reference is not at ${referenceDir}`);
    t.pass();
    return;
  }
  const paths = [...referencePaths(), ...WIRELESS];
  t.is(paths.length, 97, '94 endpoints in the reference and the 3 of the wireless app');
  const service = await startService();
  t.teardown(() => service.close());
  const unserved: string[] = [];
  for (const path of paths) {
    // /api/users/config/ is the caller's own object, not a list
    const response = await service.api('GET', path === '/api/users/config/' ? path : `${path}?limit=1`);
    const shaped =
      path === '/api/users/config/'
        ? typeof response.body === 'object' && !Array.isArray(response.body)
        : UNPAGINATED.has(path)
          ? Array.isArray(response.body)
          : typeof response.body?.count === 'number' && Array.isArray(response.body.results);
    if (response.status !== 200 || !shaped) unserved.push(`${path} ${response.status}`);
  }
  t.deepEqual(unserved, [], 'endpoints not served');
  t.log(`${paths.length - unserved.length} of ${paths.length} endpoints served`);
});

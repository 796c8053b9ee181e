/**
 * Branches on a read replica: the branches and their views are built from the log the
 * replica follows, a write inside a branch sent to the replica is made by the writer, and
 * read-your-writes holds inside the branch with the position header.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { type ServiceProcess, startProcess } from '../support/serviceProcess.js';

const POSITION = 'X-Netledger-Position';

test('a read replica serves branches: reads in a branch, a write in a branch forwarded to the writer', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-branch-replica-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const start = async (env: Record<string, string>): Promise<ServiceProcess> => {
    const service = await startProcess(env);
    t.teardown(() => service.stop());
    return service;
  };
  const writer = await start({ DATA_DIR: dir });
  const reader = await start({ DATA_DIR: dir, ROLE: 'reader', WRITER_URL: writer.url });
  await reader.line(/^caught up with the change log/);

  const site = await writer.api('POST', '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const branch = await writer.api('POST', '/api/plugins/branching/branches/', { name: 'on-replica' });
  t.is(branch.status, 201);
  const inBranch = { 'X-NetBox-Branch': branch.body.schema_id, [POSITION]: branch.headers.get(POSITION)! };
  const listed = await reader.api('GET', '/api/plugins/branching/branches/', undefined, inBranch);
  t.deepEqual(
    listed.body.results.map((b: any) => b.schema_id),
    [branch.body.schema_id],
  );
  const rack = await reader.api('POST', '/api/dcim/racks/', { name: 'R1', site: site.body.id }, inBranch);
  t.is(rack.status, 201, JSON.stringify(rack.body));
  const after = { ...inBranch, [POSITION]: rack.headers.get(POSITION)! };
  t.is((await reader.api('GET', `/api/dcim/racks/${rack.body.id}/`, undefined, after)).status, 200);
  t.is(
    (await reader.api('GET', `/api/dcim/racks/${rack.body.id}/`, undefined, { [POSITION]: after[POSITION] })).status,
    404,
  );
  t.is((await writer.api('GET', `/api/dcim/racks/${rack.body.id}/`)).status, 404, 'main unchanged on the writer');
});

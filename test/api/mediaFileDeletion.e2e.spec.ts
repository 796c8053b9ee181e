/**
 * Uploaded files are deleted once nothing names them: replaced, cleared, their object
 * deleted, or their upload refused. Only after the change is durable: a write the log
 * refuses leaves every file in place. Files are shared by digest, so a file another
 * object still names stays.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import test from 'ava';

import { FaultyFileSystem } from '../support/faultyFileSystem.js';
import { ADMIN_TOKEN, startService, type TestService } from '../support/startService.js';
import { tinyPng } from '../support/tinyImages.js';

const ATTACHMENTS = '/api/extras/image-attachments/';
const TYPES = '/api/dcim/device-types/';
const digestOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

type Fields = Record<string, string | number>;
type Files = Record<string, Buffer>;

async function send(service: TestService, method: string, at: string, fields: Fields, files: Files = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  for (const [name, bytes] of Object.entries(files)) {
    form.append(name, new Blob([new Uint8Array(bytes)]), `${name}.png`);
  }
  const headers = { Authorization: `Token ${ADMIN_TOKEN}` };
  const response = await fetch(service.url + at, { method, headers, body: form });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

function stored(service: TestService, directory: string): string[] {
  const dir = path.join(service.dataDir, 'media', directory);
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => !f.startsWith('.'))
        .sort()
    : [];
}

/** An attachment of `png` to the site `objectId` (9999: no such site). */
function attach(service: TestService, objectId: number, png: Buffer) {
  return send(service, 'POST', ATTACHMENTS, { content_type: 'dcim.site', object_id: objectId }, { image: png });
}

async function site(service: TestService, name: string): Promise<number> {
  const response = await service.api('POST', '/api/dcim/sites/', { name, slug: name });
  if (response.status !== 201) throw new Error(JSON.stringify(response.body));
  return response.body.id;
}

test('an image attachment deleted takes its file along, unless another attachment shows the same bytes', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const siteId = await site(service, 's1');
  const png = tinyPng(2, 2);
  const first = await attach(service, siteId, png);
  const second = await attach(service, siteId, png);
  t.is(first.status, 201);
  t.is(second.status, 201);
  t.deepEqual(stored(service, 'image-attachments'), [`${digestOf(png)}.png`]);

  t.is((await service.api('DELETE', `${ATTACHMENTS}${first.body.id}/`)).status, 204);
  t.deepEqual(stored(service, 'image-attachments'), [`${digestOf(png)}.png`], 'still shown by the second attachment');
  t.is((await fetch(second.body.image, { headers: { Authorization: `Token ${ADMIN_TOKEN}` } })).status, 200);

  t.is((await service.api('DELETE', `${ATTACHMENTS}${second.body.id}/`)).status, 204);
  t.deepEqual(stored(service, 'image-attachments'), [], 'no attachment shows it any more');
});

test('a device type image replaced, cleared, or deleted with its device type leaves no file behind', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const maker = (await service.api('POST', '/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' })).body;
  const [front, front2, rear] = [tinyPng(2, 2, 1), tinyPng(2, 2, 2), tinyPng(2, 2, 3)];
  const fields = { manufacturer: maker.id, model: 'Box', slug: 'box' };
  const created = await send(service, 'POST', TYPES, fields, { front_image: front, rear_image: rear });
  t.is(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id;
  t.deepEqual(stored(service, 'devicetype-images'), [`${digestOf(front)}.png`, `${digestOf(rear)}.png`].sort());

  t.is((await send(service, 'PATCH', `${TYPES}${id}/`, {}, { front_image: front2 })).status, 200);
  const kept = [`${digestOf(front2)}.png`, `${digestOf(rear)}.png`].sort();
  t.deepEqual(stored(service, 'devicetype-images'), kept, 'the replaced file is gone');

  t.is((await service.api('PATCH', `${TYPES}${id}/`, { front_image: null })).status, 200);
  t.deepEqual(stored(service, 'devicetype-images'), [`${digestOf(rear)}.png`], 'the cleared file is gone');

  t.is((await service.api('DELETE', `${TYPES}${id}/`)).status, 204);
  t.deepEqual(stored(service, 'devicetype-images'), [], "the deleted device type's file is gone");
});

test('a refused upload leaves no file behind, but never deletes a file another object shows', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const siteId = await site(service, 's1');
  const png = tinyPng(3, 3);
  const refused = await attach(service, 9999, png);
  t.is(refused.status, 400, JSON.stringify(refused.body));
  t.deepEqual(stored(service, 'image-attachments'), []);

  const maker = (await service.api('POST', '/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' })).body;
  const fields = { manufacturer: maker.id, slug: 'no-model' };
  const badType = await send(service, 'POST', TYPES, fields, { front_image: png });
  t.is(badType.status, 400, JSON.stringify(badType.body));
  t.deepEqual(stored(service, 'devicetype-images'), []);
  const images = { front_image: png, rear_image: Buffer.from('no image') };
  const badRear = await send(service, 'POST', TYPES, { ...fields, model: 'M' }, images);
  t.is(badRear.status, 400, JSON.stringify(badRear.body));
  t.deepEqual(stored(service, 'devicetype-images'), [], 'the front image stored before the rear one was refused');

  const kept = await attach(service, siteId, png);
  t.is(kept.status, 201);
  const again = await attach(service, 9999, png);
  t.is(again.status, 400);
  const shown = [`${digestOf(png)}.png`];
  t.deepEqual(stored(service, 'image-attachments'), shown, 'the same bytes, shown by the first attachment');
});

test('file log: a file is deleted only once the change releasing it is durable: a refused delete keeps it', async (t) => {
  const disk = new FaultyFileSystem();
  const writerRetry = { firstMs: 20, maxMs: 100 };
  const service = await startService({}, undefined, { start: { logFileSystem: disk, writerRetry } });
  t.teardown(() => service.close());
  const siteId = await site(service, 's1');
  const png = tinyPng(4, 4);
  const created = await attach(service, siteId, png);
  t.is(created.status, 201);

  disk.free = 0;
  t.is((await service.api('DELETE', `${ATTACHMENTS}${created.body.id}/`)).status, 503);
  t.deepEqual(stored(service, 'image-attachments'), [`${digestOf(png)}.png`]);
  const replaced = await attach(service, siteId, tinyPng(5, 5));
  t.is(replaced.status, 503);
  const files = stored(service, 'image-attachments');
  t.is(files.length, 2, 'an upload whose write may have been made keeps its file (an orphan at worst)');
  disk.free = null;
});

test('attachments deleted with the object they belong to take their files along', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const siteId = await site(service, 's1');
  const png = tinyPng(6, 6);
  t.is((await attach(service, siteId, png)).status, 201);
  t.is((await service.api('DELETE', `/api/dcim/sites/${siteId}/`)).status, 204);
  t.is((await service.api('GET', ATTACHMENTS)).body.count, 0);
  t.deepEqual(stored(service, 'image-attachments'), []);
});

import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';

import test from 'ava';

import { loggedBytes } from '../support/loggedBytes.js';
import { ADMIN_TOKEN, startService, type TestService } from '../support/startService.js';
import { gifHeader, tinyPng } from '../support/tinyImages.js';

const TYPES = '/api/dcim/device-types/';

async function post(service: TestService, at: string, body: unknown): Promise<any> {
  const response = await service.api('POST', at, body);
  if (response.status !== 201) throw new Error(`${at}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

type Image = { bytes: Buffer; filename: string };

/** A multipart/form-data write, as pynetbox sends one with files. */
async function send(
  service: TestService,
  method: string,
  at: string,
  fields: Record<string, string | number>,
  files: Record<string, Image> = {},
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  for (const [name, image] of Object.entries(files))
    form.append(name, new Blob([new Uint8Array(image.bytes)], { type: 'application/octet-stream' }), image.filename);
  const response = await fetch(service.url + at, {
    method,
    headers: { Authorization: `Token ${ADMIN_TOKEN}`, ...headers },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const digestOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function ids(service: TestService, query: string): Promise<number[]> {
  const response = await service.api('GET', `${TYPES}?${query}`);
  if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.results.map((o: any) => o.id).sort((a: number, b: number) => a - b);
}

test('device-type images: multipart create, replace, clear by JSON, has_ filters and the served file', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const maker = await post(service, '/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
  const front = tinyPng(4, 2);
  const created = await send(
    service,
    'POST',
    TYPES,
    { manufacturer: maker.id, model: 'Box 1', slug: 'box-1', u_height: '2', is_full_depth: 'false' },
    { front_image: { bytes: front, filename: 'front.png' } },
  );
  t.is(created.status, 201, JSON.stringify(created.body));
  const box = created.body;
  t.is(created.headers.get('Location'), box.url);
  t.is(box.front_image, `${service.url}/media/devicetype-images/${digestOf(front)}.png`);
  t.is(box.rear_image, null);
  t.is(box.u_height, 2);
  t.false(box.is_full_depth);
  t.deepEqual(box.manufacturer.id, maker.id);
  t.false(
    Object.keys(box).some((k) => k.endsWith('_digest') || k.endsWith('_size')),
    'the kept digest and size are not shown',
  );

  const served = await fetch(box.front_image, { headers: { Authorization: `Token ${ADMIN_TOKEN}` } });
  t.is(served.status, 200);
  t.is(served.headers.get('Content-Type'), 'image/png');
  t.true(Buffer.from(await served.arrayBuffer()).equals(front));
  t.is(served.headers.get('X-Content-Type-Options'), 'nosniff', 'uploaded bytes are never sniffed into another type');
  t.is(served.headers.get('Content-Security-Policy'), "sandbox; default-src 'none'", 'nor run as a document');
  t.is(
    (
      await fetch(`${service.url}/media/devicetype-images/${'0'.repeat(64)}.png`, {
        headers: { Authorization: `Token ${ADMIN_TOKEN}` },
      })
    ).status,
    404,
  );

  // the event names the file by its digest and size, never its bytes nor the request's token
  const log = await loggedBytes(service);
  t.true(log.includes(digestOf(front)));
  t.false(log.includes(front.subarray(16, 33)), 'no image bytes in the log');
  t.false(log.includes(front.toString('base64').slice(0, 40)), 'nor their base64');
  t.deepEqual(readdirSync(path.join(service.dataDir, 'media', 'devicetype-images')), [`${digestOf(front)}.png`]);

  // PATCH with a rear image keeps the front one; PUT-less JSON edits keep both
  const rear = tinyPng(4, 2, 0x10);
  const patched = await send(
    service,
    'PATCH',
    `${TYPES}${box.id}/`,
    {},
    { rear_image: { bytes: rear, filename: 'rear.png' } },
  );
  t.is(patched.status, 200, JSON.stringify(patched.body));
  t.is(patched.body.front_image, box.front_image);
  t.is(patched.body.rear_image, `${service.url}/media/devicetype-images/${digestOf(rear)}.png`);
  const renamed = await service.api('PATCH', `${TYPES}${box.id}/`, { model: 'Box One' });
  t.is(renamed.status, 200, JSON.stringify(renamed.body));
  t.is(renamed.body.front_image, box.front_image);
  t.is(renamed.body.rear_image, patched.body.rear_image);

  // replaced by another upload
  const front2 = tinyPng(2, 2, 0x20);
  const replaced = await send(
    service,
    'PATCH',
    `${TYPES}${box.id}/`,
    { comments: 'new front' },
    { front_image: { bytes: front2, filename: 'f2.png' } },
  );
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.is(replaced.body.front_image, `${service.url}/media/devicetype-images/${digestOf(front2)}.png`);
  t.is(replaced.body.comments, 'new front');

  const plain = await post(service, TYPES, { manufacturer: maker.id, model: 'Plain', slug: 'plain' });
  t.is(plain.front_image, null);
  t.deepEqual(await ids(service, 'has_front_image=true'), [box.id]);
  t.deepEqual(await ids(service, 'has_front_image=false'), [plain.id]);
  t.deepEqual(await ids(service, 'has_rear_image=true'), [box.id]);

  // cleared by JSON null, and by an empty form value
  const cleared = await service.api('PATCH', `${TYPES}${box.id}/`, { front_image: null });
  t.is(cleared.status, 200, JSON.stringify(cleared.body));
  t.is(cleared.body.front_image, null);
  t.is(cleared.body.rear_image, patched.body.rear_image);
  const formCleared = await send(service, 'PATCH', `${TYPES}${box.id}/`, { rear_image: '' });
  t.is(formCleared.status, 200, JSON.stringify(formCleared.body));
  t.is(formCleared.body.rear_image, null);
  t.deepEqual(await ids(service, 'has_front_image=true'), []);
  t.deepEqual(await ids(service, 'has_rear_image=false'), [box.id, plain.id]);
  t.is(
    (await fetch(box.front_image, { headers: { Authorization: `Token ${ADMIN_TOKEN}` } })).status,
    404,
    'a file no object shows is not served',
  );

  // OPTIONS says how the field is written, as DRF's metadata does
  const options = await service.api('OPTIONS', TYPES);
  t.like(options.body.actions.POST.front_image, { type: 'image upload', required: false, read_only: false });

  // the change log names the stored files
  const changes = await service.api(
    'GET',
    `/api/extras/object-changes/?changed_object_type=dcim.devicetype&changed_object_id=${box.id}`,
  );
  t.is(changes.status, 200);
  t.true(JSON.stringify(changes.body).includes(`"front_image":"${digestOf(front)}.png"`));
});

test('device-type images: a JSON body cannot name a file; non-images and oversized uploads are refused', async (t) => {
  const service = await startService({ MAX_BODY_BYTES: '4096' });
  t.teardown(() => service.close());
  const maker = await post(service, '/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
  const fields = { manufacturer: maker.id, model: 'Box', slug: 'box' };
  const notAFile = { front_image: ['The submitted data was not a file. Check the encoding type on the form.'] };

  const forged = await service.api('POST', TYPES, { ...fields, front_image: `${'a'.repeat(64)}.png` });
  t.is(forged.status, 400);
  t.deepEqual(forged.body, notAFile);
  const url = await service.api('POST', TYPES, { ...fields, front_image: 'http://example.com/x.png' });
  t.deepEqual(url.body, notAFile);

  const text = await send(service, 'POST', TYPES, fields, {
    front_image: { bytes: Buffer.from('hello, not a picture'), filename: 'x.png' },
  });
  t.is(text.status, 400);
  t.deepEqual(text.body, {
    front_image: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'],
  });
  const empty = await send(service, 'POST', TYPES, fields, {
    rear_image: { bytes: Buffer.alloc(0), filename: 'x.png' },
  });
  t.is(empty.status, 400);
  t.deepEqual(empty.body, { rear_image: ['The submitted file is empty.'] });

  const large = await send(service, 'POST', TYPES, fields, {
    front_image: { bytes: Buffer.concat([tinyPng(2, 2), Buffer.alloc(8192)]), filename: 'big.png' },
  });
  t.is(large.status, 413);
  t.regex(large.body.detail, /exceeds the limit of 4096 bytes/);
  t.deepEqual(
    readdirSync(service.dataDir).filter((f) => f === 'media'),
    [],
    'no file stored for a refused upload',
  );
  t.is((await service.api('GET', TYPES)).body.count, 0, 'nothing written');

  // a GIF is accepted; its stored name keeps the format
  const gif = Buffer.concat([gifHeader(3, 3), Buffer.from([0x3b])]);
  const made = await send(service, 'POST', TYPES, fields, { front_image: { bytes: gif, filename: 'f.gif' } });
  t.is(made.status, 201, JSON.stringify(made.body));
  t.true(made.body.front_image.endsWith(`${digestOf(gif)}.gif`));
  // sending back the stored file's name (or nothing) keeps it
  const name = made.body.front_image.split('/').pop();
  const same = await service.api('PATCH', `${TYPES}${made.body.id}/`, { front_image: name, comments: 'x' });
  t.is(same.status, 200, JSON.stringify(same.body));
  t.is(same.body.front_image, made.body.front_image);
});

test('device-type image files are served only to clients that may read a device type showing them', async (t) => {
  const service = await startService({ LOGIN_REQUIRED: 'true' });
  t.teardown(() => service.close());
  const maker = await post(service, '/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
  const created = await send(
    service,
    'POST',
    TYPES,
    { manufacturer: maker.id, model: 'Box', slug: 'box' },
    { front_image: { bytes: tinyPng(2, 2), filename: 'f.png' } },
  );
  t.is(created.status, 201, JSON.stringify(created.body));
  t.is((await fetch(created.body.front_image)).status, 403, 'anonymous');
  const bob = await post(service, '/api/users/users/', { username: 'bob', password: 'a long passphrase' });
  const token = await post(service, '/api/users/tokens/', {
    user: bob.id,
    key: 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0',
  });
  const asBob = { Authorization: `Token ${token.key}` };
  t.is((await fetch(created.body.front_image, { headers: asBob })).status, 403, 'no view permission on device types');
  const denied = await send(service, 'PATCH', `${TYPES}${created.body.id}/`, { comments: 'x' }, {}, asBob);
  t.is(denied.status, 403, 'a multipart write needs the change permission');
  await post(service, '/api/users/permissions/', {
    name: 'types',
    object_types: ['dcim.devicetype'],
    actions: ['view'],
    users: [bob.id],
  });
  t.is((await fetch(created.body.front_image, { headers: asBob })).status, 200);
  t.is((await fetch(created.body.front_image, { headers: asBob, method: 'HEAD' })).status, 200);
});

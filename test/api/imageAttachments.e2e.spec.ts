import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';

import test from 'ava';

import { loggedBytes } from '../support/loggedBytes.js';
import { ADMIN_TOKEN, startService, type TestService } from '../support/startService.js';
import { tinyPng } from '../support/tinyImages.js';

const ATTACHMENTS = '/api/extras/image-attachments/';

async function post(service: TestService, at: string, body: unknown): Promise<any> {
  const response = await service.api('POST', at, body);
  if (response.status !== 201) throw new Error(`${at}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A multipart/form-data POST, as pynetbox and browsers send uploads. */
async function upload(
  service: TestService,
  fields: Record<string, string | number>,
  image?: { bytes: Buffer; filename: string },
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  if (image)
    form.append('image', new Blob([new Uint8Array(image.bytes)], { type: 'application/octet-stream' }), image.filename);
  const response = await fetch(service.url + ATTACHMENTS, {
    method: 'POST',
    headers: { Authorization: `Token ${ADMIN_TOKEN}`, ...headers },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

async function ids(service: TestService, query: string): Promise<number[]> {
  const response = await service.api('GET', `${ATTACHMENTS}?${query}`);
  if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.results.map((o: any) => o.id).sort((a: number, b: number) => a - b);
}

test('a multipart upload creates an attachment with its dimensions, and its file is served byte for byte', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const png = tinyPng(3, 2);
  const created = await upload(
    service,
    { content_type: 'dcim.site', object_id: site.id, name: 'Front', image_height: 999 },
    { bytes: png, filename: 'front view.png' },
  );
  t.is(created.status, 201, JSON.stringify(created.body));
  const a = created.body;
  t.deepEqual(Object.keys(a), [
    'id',
    'url',
    'display',
    'content_type',
    'object_id',
    'parent',
    'name',
    'image',
    'image_height',
    'image_width',
    'created',
    'last_updated',
  ]);
  t.is(created.headers.get('Location'), a.url);
  t.is(a.content_type, 'dcim.site');
  t.is(a.object_id, site.id);
  t.deepEqual(a.parent, { id: site.id, url: site.url, display: 'DC-1', name: 'DC-1', slug: 'dc-1' });
  t.is(a.display, 'Front');
  t.is(a.image_width, 3);
  t.is(a.image_height, 2, 'read from the file, not from the form');
  const digest = createHash('sha256').update(png).digest('hex');
  t.is(a.image, `${service.url}/media/image-attachments/${digest}.png`);
  t.regex(a.created, /^\d{4}-\d\d-\d\d$/);

  const served = await fetch(a.image, { headers: { Authorization: `Token ${ADMIN_TOKEN}` } });
  t.is(served.status, 200);
  t.is(served.headers.get('Content-Type'), 'image/png');
  t.true(Buffer.from(await served.arrayBuffer()).equals(png));
  t.is(served.headers.get('X-Content-Type-Options'), 'nosniff', 'uploaded bytes are never sniffed into another type');
  t.is(served.headers.get('Content-Security-Policy'), "sandbox; default-src 'none'", 'nor run as a document');
  // served like an API read: not to an anonymous client when login is required, never a file no attachment shows
  const unknown = await fetch(`${service.url}/media/image-attachments/${'0'.repeat(64)}.png`, {
    headers: { Authorization: `Token ${ADMIN_TOKEN}` },
  });
  t.is(unknown.status, 404);
  t.is(
    (
      await fetch(`${service.url}/media/image-attachments/..%2Fevents.log`, {
        headers: { Authorization: `Token ${ADMIN_TOKEN}` },
      })
    ).status,
    404,
  );

  // the file is stored under its digest; the event log names it but never holds its bytes
  t.deepEqual(readdirSync(path.join(service.dataDir, 'media', 'image-attachments')), [`${digest}.png`]);
  const log = await loggedBytes(service);
  t.true(log.includes(digest), 'the event names the file by its digest');
  t.false(log.includes(png.subarray(16, 33)), 'no image bytes in the log');
  t.false(log.includes(png.toString('base64').slice(0, 40)), 'nor their base64');
  t.false(log.includes('image_upload'), "nor the request's upload token");
  t.true(log.includes('front view.png'), 'the original name is kept');

  // an attachment without a name shows the name of the uploaded file; brief form
  const unnamed = await upload(
    service,
    { content_type: 'dcim.site', object_id: site.id },
    { bytes: tinyPng(1, 1), filename: 'rear.png' },
  );
  t.is(unnamed.status, 201, JSON.stringify(unnamed.body));
  t.is(unnamed.body.display, 'rear.png');
  t.is(unnamed.body.name, '');
  const brief = await service.api('GET', `${ATTACHMENTS}${a.id}/?brief=1`);
  t.deepEqual(brief.body, { id: a.id, url: a.url, display: 'Front', name: 'Front', image: a.image });

  // a JSON change of the name keeps the image; ordered by name
  const patched = await service.api('PATCH', `${ATTACHMENTS}${a.id}/`, { name: 'A front' });
  t.is(patched.status, 200, JSON.stringify(patched.body));
  t.is(patched.body.image, a.image);
  t.is(patched.body.image_width, 3);
  t.deepEqual(
    (await service.api('GET', ATTACHMENTS)).body.results.map((o: any) => o.id),
    [unnamed.body.id, a.id],
  );

  // deleting the parent deletes its attachments; their history stays
  t.is((await service.api('DELETE', `/api/dcim/sites/${site.id}/`)).status, 204);
  t.is((await service.api('GET', `${ATTACHMENTS}${a.id}/`)).status, 404);
  const changes = await service.api(
    'GET',
    `/api/extras/object-changes/?changed_object_type=extras.imageattachment&changed_object_id=${a.id}`,
  );
  t.deepEqual(changes.body.results.map((c: any) => c.action.value).sort(), ['create', 'delete', 'update']);
});

test("an upload without a valid image is refused in NetBox's shape", async (t) => {
  const service = await startService({ MAX_BODY_BYTES: '4096' });
  t.teardown(() => service.close());
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const fields = { content_type: 'dcim.site', object_id: site.id };

  const json = await service.api('POST', ATTACHMENTS, fields);
  t.is(json.status, 400);
  t.deepEqual(json.body, { image: ['No file was submitted.'] });

  const noFile = await upload(service, fields);
  t.is(noFile.status, 400);
  t.deepEqual(noFile.body, { image: ['No file was submitted.'] });

  const text = await upload(service, fields, { bytes: Buffer.from('hello, not a picture'), filename: 'x.png' });
  t.is(text.status, 400);
  t.deepEqual(text.body, {
    image: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'],
  });

  const large = await upload(service, fields, {
    bytes: Buffer.concat([tinyPng(2, 2), Buffer.alloc(8192)]),
    filename: 'big.png',
  });
  t.is(large.status, 413);
  t.regex(large.body.detail, /exceeds the limit of 4096 bytes/);
  // sent in chunks, with no length announced: refused once the parts pass the limit
  const boundary = 'x-boundary';
  const parts = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="content_type"\r\n\r\ndcim.site\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    tinyPng(2, 2),
    Buffer.alloc(8192),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const chunked = await fetch(service.url + ATTACHMENTS, {
    method: 'POST',
    headers: { Authorization: `Token ${ADMIN_TOKEN}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body: new ReadableStream({
      start(controller) {
        for (let at = 0; at < parts.length; at += 1000)
          controller.enqueue(new Uint8Array(parts.subarray(at, at + 1000)));
        controller.close();
      },
    }),
    duplex: 'half',
  } as RequestInit);
  t.is(chunked.status, 413);
  t.deepEqual(
    readdirSync(service.dataDir).filter((f) => f === 'media'),
    [],
    'no file stored for a refused upload',
  );

  const orphan = await upload(
    service,
    { content_type: 'dcim.site', object_id: 999 },
    { bytes: tinyPng(1, 1), filename: 'o.png' },
  );
  t.is(orphan.status, 400);
  t.deepEqual(orphan.body, { non_field_errors: ['Invalid parent object: dcim | site ID 999'] });

  const notImageModel = await upload(
    service,
    { content_type: 'ipam.vrf', object_id: 1 },
    { bytes: tinyPng(1, 1), filename: 'o.png' },
  );
  t.is(notImageModel.status, 400);
  t.deepEqual(Object.keys(notImageModel.body), ['content_type']);

  // a JSON client cannot name a stored file
  const forged = await service.api('POST', ATTACHMENTS, {
    ...fields,
    image_upload: 'guess',
    image_file: `${'a'.repeat(64)}.png`,
  });
  t.is(forged.status, 400);
  t.deepEqual(forged.body, { image: ['No file was submitted.'] });
  t.is((await service.api('GET', ATTACHMENTS)).body.count, 0, 'nothing written');
});

test('image attachments filter by content type, object, name and q', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const other = await post(service, '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2' });
  const location = await post(service, '/api/dcim/locations/', { name: 'Hall', slug: 'hall', site: site.id });
  const made = [];
  for (const [type, id, name] of [
    ['dcim.site', site.id, 'rack row'],
    ['dcim.site', other.id, 'cage'],
    ['dcim.location', location.id, 'hall door'],
  ] as const) {
    const response = await upload(
      service,
      { content_type: type, object_id: id, name },
      { bytes: tinyPng(1, 1, made.length), filename: `${name}.png` },
    );
    if (response.status !== 201) throw new Error(JSON.stringify(response.body));
    made.push(response.body.id);
  }
  const [row, cage, door] = made;
  t.deepEqual(await ids(service, 'content_type=dcim.site'), [row, cage]);
  t.deepEqual(await ids(service, 'content_type=dcim.location'), [door]);
  t.deepEqual(await ids(service, `object_id=${other.id}`), [cage]);
  t.deepEqual(await ids(service, 'name=cage'), [cage]);
  t.deepEqual(await ids(service, 'q=DOOR'), [door]);
  t.deepEqual(await ids(service, `id=${row}&id=${door}`), [row, door]);
  const types = (await service.api('GET', '/api/extras/content-types/?app_label=dcim&model=location')).body.results;
  t.deepEqual(await ids(service, `content_type_id=${types[0].id}`), [door]);
  t.deepEqual(
    await ids(service, 'ordering=-name'),
    [door, cage, row].sort((a, b) => a - b),
  );
  t.deepEqual(
    (await service.api('GET', `${ATTACHMENTS}?ordering=-name`)).body.results.map((o: any) => o.name),
    ['rack row', 'hall door', 'cage'],
  );
});

test('an uploaded file is served only to clients that may read its attachment', async (t) => {
  const service = await startService({ LOGIN_REQUIRED: 'true' });
  t.teardown(() => service.close());
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const created = await upload(
    service,
    { content_type: 'dcim.site', object_id: site.id },
    { bytes: tinyPng(2, 2), filename: 'x.png' },
  );
  t.is(created.status, 201, JSON.stringify(created.body));
  t.is((await fetch(created.body.image)).status, 403, 'anonymous');
  const bob = await post(service, '/api/users/users/', { username: 'bob', password: 'a long passphrase' });
  const token = await post(service, '/api/users/tokens/', {
    user: bob.id,
    key: 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0',
  });
  const asBob = { Authorization: `Token ${token.key}` };
  t.is((await fetch(created.body.image, { headers: asBob })).status, 403, 'no view permission on image attachments');
  await post(service, '/api/users/permissions/', {
    name: 'other images',
    object_types: ['extras.imageattachment'],
    actions: ['view'],
    users: [bob.id],
    constraints: { name: 'other' },
  });
  t.is((await fetch(created.body.image, { headers: asBob })).status, 404, 'outside the constraints: as if absent');
  await post(service, '/api/users/permissions/', {
    name: 'images',
    object_types: ['extras.imageattachment'],
    actions: ['view'],
    users: [bob.id],
  });
  t.is((await fetch(created.body.image, { headers: asBob })).status, 200);
  t.is((await fetch(created.body.image, { headers: asBob, method: 'HEAD' })).status, 200);
});

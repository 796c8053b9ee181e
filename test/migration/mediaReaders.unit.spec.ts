import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { httpMedia, mediaDirectory, MediaUnreadableError } from '../../src/migration/mediaReaders.js';

test('--media-dir: the path after /media/ names the file under the directory, never outside it, within the size cap', async (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'netledger-media-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(path.join(root, 'image-attachments'));
  writeFileSync(path.join(root, 'image-attachments', 'dcim_site_1_floor plan.png'), 'PNG');
  writeFileSync(path.join(root, '..', `${path.basename(root)}-secret`), 'secret');
  t.teardown(() => rmSync(path.join(root, '..', `${path.basename(root)}-secret`), { force: true }));
  const reader = mediaDirectory(root);
  const url = 'https://netbox.example/media/image-attachments/dcim_site_1_floor%20plan.png';
  t.is((await reader.read(url, 100)).toString(), 'PNG');
  t.is((await reader.read('/media/image-attachments/dcim_site_1_floor%20plan.png', 100)).toString(), 'PNG');
  await t.throwsAsync(reader.read(url, 2), { instanceOf: MediaUnreadableError, message: /larger than 2 bytes/ });
  await t.throwsAsync(reader.read('https://netbox.example/media/image-attachments/none.png', 100), {
    instanceOf: MediaUnreadableError,
    message: /ENOENT/,
  });
  await t.throwsAsync(reader.read(`https://netbox.example/media/..%2F${path.basename(root)}-secret`, 100), {
    instanceOf: MediaUnreadableError,
    message: /outside the media directory/,
  });
  await t.throwsAsync(reader.read('https://netbox.example/static/x.png', 100), {
    instanceOf: MediaUnreadableError,
    message: /not under \/media\//,
  });
});

test("over HTTP: relative URLs are the source's, the token goes to the source's origin only, the size cap holds", async (t) => {
  const asked: Array<{ url: string; authorization: string | undefined }> = [];
  const fakeFetch = (async (input: URL, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    asked.push({ url: String(input), authorization: headers.Authorization });
    if (String(input).endsWith('/big.png')) return new Response('x'.repeat(50));
    if (String(input).endsWith('/gone.png')) return new Response('no', { status: 404 });
    return new Response('bytes');
  }) as typeof fetch;
  const reader = httpMedia('https://netbox.example/', 'secret-token', fakeFetch);
  t.is((await reader.read('/media/image-attachments/a.png', 10)).toString(), 'bytes');
  t.is((await reader.read('https://cdn.example/media/b.png', 10)).toString(), 'bytes');
  await t.throwsAsync(reader.read('/media/big.png', 10), {
    instanceOf: MediaUnreadableError,
    message: /larger than 10/,
  });
  await t.throwsAsync(reader.read('/media/gone.png', 10), { instanceOf: MediaUnreadableError, message: /404/ });
  t.deepEqual(asked.slice(0, 2), [
    { url: 'https://netbox.example/media/image-attachments/a.png', authorization: 'Token secret-token' },
    { url: 'https://cdn.example/media/b.png', authorization: undefined },
  ]);
});

test('a NetBox with LOGIN_REQUIRED redirects a media request to its login page: the reader says to use --media-dir', async (t) => {
  const fakeFetch = (async () => {
    const page = new Response('<html>log in</html>', { headers: { 'Content-Type': 'text/html' } });
    Object.defineProperty(page, 'redirected', { value: true });
    Object.defineProperty(page, 'url', { value: 'https://netbox.example/login/?next=/media/x.png' });
    return page;
  }) as unknown as typeof fetch;
  await t.throwsAsync(httpMedia('https://netbox.example', 'token', fakeFetch).read('/media/x.png', 100), {
    instanceOf: MediaUnreadableError,
    message: /redirected to the login page .*use --media-dir/,
  });
});

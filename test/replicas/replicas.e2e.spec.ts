/**
 * Read replicas: one writer and readers as separate processes sharing one data
 * directory, the readers following the writer's embedded log read-only.
 */
import { appendFileSync, mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test, { type ExecutionContext } from 'ava';

import { loadConfig } from '../../src/config.js';
import { DataDirLock } from '../../src/events/DataDirLock.js';
import { encodeFrame } from '../../src/events/file/frames.js';
import { type LogFileSystem, nodeFileSystem } from '../../src/events/file/logFileSystem.js';
import { scanLog } from '../../src/events/file/logScan.js';
import { start } from '../../src/main.js';
import { makeEvent } from '../support/makeEvent.js';
import { type ServiceProcess, startProcess } from '../support/serviceProcess.js';
import { ADMIN_TOKEN, startService } from '../support/startService.js';
import { tinyPng } from '../support/tinyImages.js';

const POSITION = 'X-Netledger-Position';

function tempDir(t: ExecutionContext): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-replicas-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function started(t: ExecutionContext, env: Record<string, string>): Promise<ServiceProcess> {
  const service = await startProcess(env);
  t.teardown(() => service.stop());
  return service;
}

/** A reader that has finished its first catch-up (it says so in its log). */
async function reader(t: ExecutionContext, dir: string, writerUrl: string | null): Promise<ServiceProcess> {
  const service = await started(t, { DATA_DIR: dir, ROLE: 'reader', ...(writerUrl ? { WRITER_URL: writerUrl } : {}) });
  await service.line(/^caught up with the change log/);
  return service;
}

test.serial(
  'a write through the writer is visible on both readers; a write sent to a reader is forwarded and read-your-writes holds with the position header',
  async (t) => {
    const dir = tempDir(t);
    const writer = await started(t, { DATA_DIR: dir });
    const [one, two] = await Promise.all([reader(t, dir, writer.url), reader(t, dir, writer.url)]);

    const created = await writer.api('POST', '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
    t.is(created.status, 201);
    const position = created.headers.get(POSITION)!;
    t.regex(position, /^\d+$/);
    for (const replica of [one, two]) {
      const seen = await replica.api('GET', '/api/dcim/sites/?slug=dc-1', undefined, { [POSITION]: position });
      t.is(seen.status, 200);
      t.deepEqual(
        seen.body.results.map((s: any) => s.name),
        ['DC-1'],
      );
      t.true(Number(seen.headers.get(POSITION)) >= Number(position));
    }

    // Sent to a reader: made by the writer, answered as the writer answered it.
    const forwarded = await one.api('POST', '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2' });
    t.is(forwarded.status, 201);
    t.is(forwarded.body.name, 'DC-2');
    t.is(forwarded.headers.get('Via'), '1.1 netledger-replica');
    t.true(forwarded.body.url.startsWith(one.url), 'links name the address the client used');
    const requestId = forwarded.headers.get('X-Request-ID')!;
    const reached = forwarded.headers.get(POSITION)!;
    t.true(Number(reached) > Number(position));
    const onTwo = await two.api('GET', `/api/dcim/sites/${forwarded.body.id}/`, undefined, { [POSITION]: reached });
    t.is(onTwo.status, 200);
    t.is(onTwo.body.name, 'DC-2');
    // The writer's request id, which the readers' audit side knows too: it may stand for the position.
    const changes = await two.api('GET', `/api/extras/object-changes/?request_id=${requestId}`, undefined, {
      'X-Netledger-After-Request': requestId,
    });
    t.is(changes.status, 200);
    t.deepEqual(
      changes.body.results.map((c: any) => c.object_repr),
      ['DC-2'],
    );

    // Preconditions and token provisioning are the writer's to decide, answers passed back as they are.
    const stale = await one.api(
      'PATCH',
      `/api/dcim/sites/${forwarded.body.id}/`,
      { description: 'x' },
      { 'If-Match': '"1"' },
    );
    t.is(stale.status, 412);
    const provisioned = await two.api(
      'POST',
      '/api/users/tokens/provision/',
      { username: 'admin', password: 'admin-password' },
      { Authorization: '' },
    );
    t.is(provisioned.status, 201);
    t.regex(provisioned.body.key, /^[0-9a-f]{40}$/);
    const withNewToken = await one.api('GET', '/api/dcim/sites/', undefined, {
      Authorization: `Token ${provisioned.body.key}`,
      [POSITION]: provisioned.headers.get(POSITION)!,
    });
    t.is(withNewToken.status, 200, 'a token made through one reader authenticates on the other');

    const ready = await one.api('GET', '/readyz/');
    t.is(ready.status, 200);
    t.like(ready.body, { status: 'ok', role: 'reader', phase: 'ready', writer_url: writer.url });
    t.true(ready.body.projector.head >= Number(provisioned.headers.get(POSITION)));
  },
);

test.serial(
  'a reader with the writer down answers reads and answers writes 503 with Retry-After and a pointer to the writer',
  async (t) => {
    const dir = tempDir(t);
    // The writer in this process (it needs no process of its own to go away), the reader in another.
    const writer = await startService({ SECRET_KEY: 'replica-secret-key' }, dir);
    t.teardown(() => writer.close());
    const created = await writer.api('POST', '/api/extras/tags/', { name: 'kept', slug: 'kept' });
    const replica = await reader(t, dir, writer.url);
    const writerUrl = writer.url;
    await writer.close();

    const read = await replica.api('GET', '/api/extras/tags/', undefined, {
      [POSITION]: created.headers.get(POSITION)!,
    });
    t.is(read.status, 200);
    t.deepEqual(
      read.body.results.map((tag: any) => tag.slug),
      ['kept'],
    );
    const refused = await replica.api('POST', '/api/extras/tags/', { name: 'lost', slug: 'lost' });
    t.is(refused.status, 503);
    t.truthy(refused.headers.get('Retry-After'));
    t.is(refused.headers.get('X-Netledger-Writer'), writerUrl);
    t.regex(
      refused.body.detail,
      new RegExp(`read replica and the writer at ${writerUrl.replace(/[.]/g, '\\.')} is unreachable.*not made`),
    );
    t.is((await replica.api('GET', '/readyz/')).status, 200, 'the replica still serves reads');

    // Without WRITER_URL a replica says where writes go instead of forwarding them.
    const alone = await startService({ ROLE: 'reader', SECRET_KEY: 'replica-secret-key' }, dir);
    t.teardown(() => alone.close());
    await alone.caughtUp;
    const nowhere = await alone.api('DELETE', '/api/extras/tags/1/');
    t.is(nowhere.status, 503);
    t.truthy(nowhere.headers.get('Retry-After'));
    t.regex(
      nowhere.body.detail,
      /read replica: it takes no writes\. Send writes to the writer \(this replica has no WRITER_URL/,
    );
    t.is((await alone.api('GET', '/api/extras/tags/1/')).status, 200);
  },
);

test.serial(
  'a reader takes no lock and leaves a torn tail alone; the writer cuts it at restart and the reader follows; a log cut below what it applied makes it exit non-zero',
  async (t) => {
    const dir = tempDir(t);
    const first = await startService({ SECRET_KEY: 'replica-secret-key' }, dir);
    const tag = await first.api('POST', '/api/extras/tags/', { name: 'before', slug: 'before' });
    await first.close();
    // An interrupted write, as a writer killed in the middle of one leaves it: half a frame at the end of the log.
    const torn = encodeFrame(JSON.stringify([makeEvent(Number(tag.headers.get(POSITION)) + 1)]));
    appendFileSync(path.join(dir, 'events.log'), torn.subarray(0, torn.length - 7));
    const size = statSync(path.join(dir, 'events.log')).size;

    const replica = await reader(t, dir, null);
    t.is(await DataDirLock.holder(dir), null, 'the reader holds no lock on the data directory');
    t.is(statSync(path.join(dir, 'events.log')).size, size, 'the torn tail is still there');
    t.is((await replica.api('GET', '/api/extras/tags/?slug=before')).body.count, 1);

    // The writer starts beside the running reader (no lock in its way), cuts the tail, writes on.
    const second = await startService({ SECRET_KEY: 'replica-secret-key' }, dir);
    t.is(
      (await scanLog(path.join(dir, 'events.log'))).verdict,
      'clean',
      'the writer, and only the writer, cut the torn tail',
    );
    const after = await second.api('POST', '/api/extras/tags/', { name: 'after', slug: 'after' });
    t.is(after.status, 201);
    const seen = await replica.api('GET', '/api/extras/tags/?ordering=slug', undefined, {
      [POSITION]: after.headers.get(POSITION)!,
    });
    t.deepEqual(
      seen.body.results.map((x: any) => x.slug),
      ['after', 'before'],
    );
    await second.close();

    truncateSync(path.join(dir, 'events.log'), 0);
    t.is(await replica.exited, 1);
    t.truthy(
      replica.lines.find(
        (line) =>
          line.level === 'fatal' &&
          /can no longer be followed.*Exiting so that a supervisor restarts/.test(String(line.msg)),
      ),
    );
  },
);

test.serial(
  '/readyz says catching-up (and the API answers 503) until the first catch-up is done, then ready',
  async (t) => {
    const writer = await startService();
    t.teardown(() => writer.close());
    await writer.api('POST', '/api/extras/tags/', { name: 't', slug: 't' });
    // Reads of the log after the follower's first look wait until the test lets them go.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let opens = 0;
    const gated: LogFileSystem = {
      ...nodeFileSystem,
      async open(file, flags, mode) {
        const handle = await nodeFileSystem.open(file, flags, mode);
        if (++opens === 1) return handle;
        return {
          ...handle,
          read: async (...args) => (await released, handle.read(...args)),
          close: () => handle.close(),
          stat: () => handle.stat(),
        };
      },
    };
    const config = loadConfig({ DATA_DIR: writer.dataDir, PORT: '0', SECRET_KEY: 'test-secret-key', ROLE: 'reader' });
    const replica = await start(config, () => {}, { logFileSystem: gated });
    t.teardown(() => replica.stop());
    t.teardown(() => release()); // runs first: a failed assertion must not leave reads held

    const get = async (route: string) => {
      const response = await fetch(replica.url + route, { headers: { Authorization: `Token ${ADMIN_TOKEN}` } });
      return {
        status: response.status,
        body: (await response.json()) as any,
        retryAfter: response.headers.get('Retry-After'),
      };
    };

    // With a token, which is not looked up in half-built read models: no 403, no stale cache.
    const catching = await get('/readyz/');
    t.is(catching.status, 503);
    t.like(catching.body, { status: 'unavailable', role: 'reader', phase: 'catching-up' });
    t.true(catching.body.projector.head > catching.body.projector.position);
    const early = await get('/api/extras/tags/');
    t.is(early.status, 503);
    t.truthy(early.retryAfter);
    t.regex(early.body.detail, /catching up with the change log \(position \d+ of \d+\)/);

    release();
    await replica.caughtUp;
    const ready = await get('/readyz/');
    t.is(ready.status, 200);
    t.like(
      ready.body,
      { status: 'ok', phase: 'ready', projector: { lag: 0, head_age_seconds: 0 } },
      'a file log follower sees its head directly: never stale',
    );
    t.is((await get('/api/extras/tags/')).body.count, 1);
  },
);

test.serial(
  "a write forwarded to a writer that trusts the replica carries the client's address as the replica found it, not as the client claimed it (token allowed_ips)",
  async (t) => {
    const writer = await startService({ TRUSTED_PROXIES: '127.0.0.1/32' }); // the replica's address: allowed_ips then hold through it
    t.teardown(() => writer.close());
    const replica = await startService({ ROLE: 'reader', WRITER_URL: writer.url }, writer.dataDir);
    t.teardown(() => replica.close());
    await replica.caughtUp;
    const elsewhere = (await writer.api('POST', '/api/users/tokens/', { user: 1, allowed_ips: ['198.51.100.0/24'] }))
      .body;
    const here = (await writer.api('POST', '/api/users/tokens/', { user: 1, allowed_ips: ['127.0.0.1/32'] })).body;
    const write = (key: string, slug: string) =>
      replica.api(
        'POST',
        '/api/extras/tags/',
        { name: slug, slug },
        { Authorization: `Token ${key}`, 'X-Real-IP': '198.51.100.7', 'X-Forwarded-For': '198.51.100.7' },
      );

    const spoofed = await write(elsewhere.key, 'spoofed');
    t.deepEqual(
      [spoofed.status, spoofed.body],
      [403, { detail: 'Source IP 127.0.0.1 is not permitted to authenticate using this token.' }],
    );
    t.is((await write(here.key, 'allowed')).status, 201);
  },
);

test.serial(
  'an image upload (multipart) sent to a reader is made by the writer; the reader serves the file from the shared data directory',
  async (t) => {
    const writer = await startService();
    t.teardown(() => writer.close());
    const replica = await startService({ ROLE: 'reader', WRITER_URL: writer.url }, writer.dataDir);
    t.teardown(() => replica.close());
    await replica.caughtUp;
    const site = await replica.api('POST', '/api/dcim/sites/', { name: 'S', slug: 's' });
    const png = tinyPng(3, 2);
    const form = new FormData();
    form.set('content_type', 'dcim.site');
    form.set('object_id', String(site.body.id));
    form.set('name', 'front');
    form.set('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'front.png');
    const uploaded = await fetch(`${replica.url}/api/extras/image-attachments/`, {
      method: 'POST',
      headers: { Authorization: `Token ${ADMIN_TOKEN}` },
      body: form,
    });
    t.is(uploaded.status, 201);
    t.is(uploaded.headers.get('Via'), '1.1 netledger-replica');
    const attachment = (await uploaded.json()) as { image: string; image_width: number };
    t.is(attachment.image_width, 3);
    t.true(attachment.image.startsWith(`${replica.url}/media/`), 'the link names the reader');
    const file = await fetch(attachment.image, {
      headers: { Authorization: `Token ${ADMIN_TOKEN}`, [POSITION]: uploaded.headers.get(POSITION)! },
    });
    t.is(file.status, 200);
    t.deepEqual(Buffer.from(await file.arrayBuffer()), png);
  },
);

/**
 * The same as diskFull.int.spec.ts on a real full file system: a small tmpfs holds the
 * data directory and a filler file takes every free byte. Mounting needs root on Linux;
 * elsewhere the test is skipped (the injected-failure tests always run).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { startService, type TestService } from '../support/startService.js';

/** A tmpfs of a few MiB mounted on a fresh directory, or why there is none. */
function mountTmpfs(): { dir: string } | { why: string } {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return { why: 'needs root on Linux to mount a tmpfs' };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-tmpfs-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0700', 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { why: `mount -t tmpfs failed: ${(mounted.stderr || mounted.error?.message || '').trim()}` };
  }
  return { dir };
}

/** Writes zeros into `file` until the file system refuses: the disk is full. */
function fill(file: string): number {
  const fd = openSync(file, 'w');
  let total = 0;
  try {
    for (const size of [1 << 20, 1 << 12, 1]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          total += writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return total;
}

const mount = mountTmpfs();
// One mount for both tests, which take turns filling it.
const tmpfsTest = 'dir' in mount ? test.serial : test.skip;
if ('dir' in mount) {
  test.after.always(() => {
    spawnSync('umount', [mount.dir]);
    rmSync(mount.dir, { recursive: true, force: true });
  });
} else {
  console.log(`diskFullTmpfs: skipped (${mount.why})`);
}

tmpfsTest(
  'a real full disk (tmpfs): writes answer 503, reads answer, and writes resume once the space is freed',
  async (t) => {
    const root = (mount as { dir: string }).dir;
    const dataDir = path.join(root, 'data');
    const messages: string[] = [];
    let resumed!: () => void;
    const resumedLogged = new Promise<void>((resolve) => (resumed = resolve));
    const logger = (entry: Record<string, unknown>) => {
      if (entry.method !== undefined) return; // request lines
      messages.push(String(entry.msg));
      if (/writes resumed/.test(String(entry.msg))) resumed();
    };
    let service: TestService | null = await startService({}, dataDir, {
      logger,
      start: { writerRetry: { firstMs: 20, maxMs: 100 } },
    });
    const filler = path.join(root, 'filler');
    t.teardown(async () => {
      rmSync(filler, { force: true });
      await service?.close();
    });
    const site = await service.api('POST', '/api/dcim/sites/', { name: 'before', slug: 'before' });
    t.is(site.status, 201);

    t.log(`filled the tmpfs with ${fill(filler)} bytes`);
    // The log's last page may still have room for a write or two; the next ones find the disk full.
    const acknowledged = ['before'];
    let refused = null;
    for (let i = 0; i < 100 && !refused; i++) {
      const write = await service.api('POST', '/api/dcim/sites/', {
        name: `full-${i}`,
        slug: `full-${i}`,
        comments: 'x'.repeat(2000),
      });
      if (write.status === 201) acknowledged.push(write.body.name);
      else refused = write;
    }
    t.is(refused?.status, 503, JSON.stringify(refused?.body));
    t.regex(refused?.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    t.is((await service.api('POST', '/api/extras/tags/', { name: 'full', slug: 'full' })).status, 503);

    t.is((await service.api('GET', '/api/dcim/sites/')).body.count, acknowledged.length);
    t.is((await service.api('GET', `/api/dcim/sites/${site.body.id}/`)).status, 200);
    const health = await fetch(`${service.url}/healthz/`);
    t.is(health.status, 503);
    t.is(((await health.json()) as any).writer, 'unavailable');
    // The event log's outage is reported once (the webhook worker reports its own state file once too).
    t.is(messages.filter((m) => m.includes('ENOSPC') && !m.startsWith('webhook')).length, 1, messages.join('\n'));

    rmSync(filler);
    await resumedLogged;
    const after = await service.api('POST', '/api/dcim/sites/', { name: 'after', slug: 'after' });
    t.is(after.status, 201, JSON.stringify(after.body));
    await service.stop();
    service = await startService({}, dataDir);
    const names = (await service.api('GET', '/api/dcim/sites/?limit=0')).body.results.map((s: any) => s.name);
    t.deepEqual(names.sort(), [...acknowledged, 'after'].sort(), 'every acknowledged write, none of the refused ones');
  },
);

// Reads of the audit side never write (event bodies are read back from the log file, src/events/file/FramePositions.ts),
// so object changes and history answer on a full disk.
const auditTest = 'dir' in mount ? test.serial : test.skip;
auditTest('a real full disk (tmpfs): object changes and history answer without writing', async (t) => {
  const root = (mount as { dir: string }).dir;
  const dataDir = path.join(root, 'audit-data');
  const errors: string[] = [];
  const service = await startService({}, dataDir, {
    logger: (e) => e.level === 'error' && errors.push(String(e.msg)),
    start: { writerRetry: { firstMs: 20, maxMs: 100 } },
  });
  const filler = path.join(root, 'audit-filler');
  t.teardown(async () => {
    rmSync(filler, { force: true });
    await service.close();
  });
  const site = await service.api('POST', '/api/dcim/sites/', { name: 'audited', slug: 'audited' });
  t.is(site.status, 201);
  fill(filler);
  const changes = await service.api(
    'GET',
    `/api/extras/object-changes/?changed_object_type=dcim.site&changed_object_id=${site.body.id}`,
  );
  t.is(changes.status, 200, errors.join('\n'));
  t.is((await service.api('GET', `/api/dcim/sites/${site.body.id}/history/`)).status, 200);
});

import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { AuditLog } from '../../src/audit/AuditLog.js';
import { FileEventLog } from '../../src/events/file/FileEventLog.js';
import { registry } from '../../src/models/registry.js';
import { makeEvent } from '../support/makeEvent.js';

/** Files this process holds open under `dir`, including deleted ones (Linux: /proc/self/fd). */
function openFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed meanwhile
    }
    if (target.startsWith(dir)) out.push(target);
  }
  return out;
}

const linux = existsSync('/proc/self/fd');

(linux ? test : test.skip)(
  'the audit side keeps no copy of the log: no scratch file, no deleted-but-open file',
  async (t) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-noscratch-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const log = new FileEventLog({ dir });
    await log.open();
    for (let p = 1; p <= 200; p += 4)
      await log.append([makeEvent(p), makeEvent(p + 1), makeEvent(p + 2), makeEvent(p + 3)]);
    const audit = new AuditLog(log, registry);
    await audit.open();
    t.teardown(() => audit.close());
    await log.append([makeEvent(201)]);
    await audit.sync();
    const bodies = await audit.events([201, 3, 150]);
    t.deepEqual(
      bodies.map((e) => e.position),
      [201, 3, 150],
    );

    const open = openFilesUnder(dir);
    t.deepEqual(
      open.filter((f) => f.endsWith('(deleted)')),
      [],
      'no hidden (deleted but open) file',
    );
    t.deepEqual(
      open.filter((f) => !f.endsWith('events.log')),
      [],
      'only the log itself is open',
    );
    t.false(existsSync(path.join(dir, 'audit')), 'no scratch directory');
    await audit.close();
    await log.close();
  },
);

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { as, ok } from '../support/callers.js';
import { ADMIN_TOKEN, startService, type TestService } from '../support/startService.js';
import { kafkaMode } from '../support/testEventLog.js';

/** Every entry under a directory, recursively (directories first). */
function entriesUnder(dir: string): Array<{ path: string; isDirectory: boolean; mode: number }> {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const stat = statSync(full);
    const entry = { path: full, isDirectory: stat.isDirectory(), mode: stat.mode & 0o777 };
    return stat.isDirectory() ? [entry, ...entriesUnder(full)] : [entry];
  });
}

/** The shape of an encrypted token key: version, IV, tag, ciphertext (base64 parts). */
const SEALED_KEY = /v1\$[A-Za-z0-9+/]{16}\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/=]{20,}/;

/** Fields anywhere in a value whose name says they hold a token key. */
function keyFields(value: unknown, found: Array<[string, unknown]> = []): Array<[string, unknown]> {
  if (value === null || typeof value !== 'object') return found;
  for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
    if (/key_cipher|encrypted|^key$/.test(name)) found.push([name, child]);
    keyFields(child, found);
  }
  return found;
}

/** A fresh directory path the service itself creates (its parent is private to the test). */
function freshDataDir(t: { teardown(fn: () => void): void }): string {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'netledger-modes-'));
  t.teardown(() => rmSync(parent, { recursive: true, force: true }));
  return path.join(parent, 'data');
}

/** Users with passwords and tokens made every way there is: supplied key, generated key, provisioned, re-keyed. */
async function makeSecrets(service: TestService): Promise<string[]> {
  const alice = await ok(service.api('POST', '/api/users/users/', { username: 'alice', password: 'alice-Pa55word!' }));
  const keys = [ADMIN_TOKEN, 'fedcba9876543210fedcba9876543210fedcba98'];
  const supplied = await ok(service.api('POST', '/api/users/tokens/', { user: alice.id, key: keys[1] }));
  keys.push((await ok(service.api('POST', '/api/users/tokens/', { user: alice.id, description: 'generated' }))).key);
  keys.push(
    (
      await ok(
        as(service, null)('POST', '/api/users/tokens/provision/', { username: 'alice', password: 'alice-Pa55word!' }),
      )
    ).key,
  );
  keys.push('0a1b2c3d4e5f60718293a4b5c6d7e8f901234567');
  await ok(service.api('PATCH', `/api/users/tokens/${supplied.id}/`, { key: keys[4] }), 200);
  return keys;
}

async function eventsOf(service: TestService): Promise<unknown[]> {
  const events: unknown[] = [];
  for await (const batch of service.services.log.read(1)) events.push(...batch);
  return events;
}

test('with ALLOW_TOKEN_RETRIEVAL=false no reversible copy of a token key is written anywhere', async (t) => {
  const dataDir = freshDataDir(t);
  const service = await startService({ ALLOW_TOKEN_RETRIEVAL: 'false', SECRET_KEY: '' }, dataDir);
  const keys = await makeSecrets(service);
  const events = await eventsOf(service);
  await service.close();

  // in the events: a token's key fields hold a digest, never a cipher
  for (const [name, value] of events.flatMap((event) => keyFields(event))) {
    t.false(name === 'key_cipher' && value !== null, `an event carries ${name}: ${String(value).slice(0, 12)}...`);
    t.false(typeof value === 'string' && keys.includes(value), `an event carries a clear key in ${name}`);
  }
  // in the files: no clear key and nothing shaped like an encrypted key, in any encoding
  const files = entriesUnder(dataDir).filter((entry) => !entry.isDirectory);
  // On Kafka the log is a topic (its events are checked above), not a file of the data directory.
  t.is(
    files.some((file) => file.path.endsWith('events.log')),
    !kafkaMode,
  );
  for (const file of files) {
    const bytes = readFileSync(file.path).toString('latin1');
    t.false(SEALED_KEY.test(bytes), `${path.relative(dataDir, file.path)} holds an encrypted token key`);
    for (const key of keys)
      t.false(
        bytes.includes(key) || bytes.includes(Buffer.from(key).toString('base64')),
        `${path.relative(dataDir, file.path)} holds a key`,
      );
  }
});

test('file log: the scan finds the encrypted copies in events.log when retrieval is allowed (so the test above can fail)', async (t) => {
  const dataDir = freshDataDir(t);
  const service = await startService({ ALLOW_TOKEN_RETRIEVAL: 'true', SECRET_KEY: '' }, dataDir);
  await makeSecrets(service);
  const events = await eventsOf(service);
  await service.close();
  t.true(
    events
      .flatMap((event) => keyFields(event))
      .some(([name, value]) => name === 'key_cipher' && typeof value === 'string'),
  );
  t.true(SEALED_KEY.test(readFileSync(path.join(dataDir, 'events.log')).toString('latin1')));
});

for (const secretKey of ['', 'a-key-from-outside']) {
  test(`every file the service creates in DATA_DIR is 0600, every directory 0700 (SECRET_KEY ${secretKey ? 'given' : 'generated'})`, async (t) => {
    if (process.platform === 'win32') return t.pass('no POSIX modes');
    const dataDir = freshDataDir(t);
    const service = await startService({ SECRET_KEY: secretKey }, dataDir);
    await makeSecrets(service);
    await service.api('POST', '/api/extras/tags/', { name: 'x', slug: 'x' });
    await service.api('GET', '/api/extras/object-changes/');
    await service.close();
    const entries = [
      { path: dataDir, isDirectory: true, mode: statSync(dataDir).mode & 0o777 },
      ...entriesUnder(dataDir),
    ];
    t.log(entries.map((e) => `${e.mode.toString(8)} ${path.relative(dataDir, e.path) || '.'}`).join('\n'));
    t.is(
      entries.some((e) => e.path.endsWith('secret_key')),
      !secretKey,
      'the generated key is kept; a given one is not',
    );
    for (const entry of entries) {
      t.is(entry.mode.toString(8), entry.isDirectory ? '700' : '600', path.relative(dataDir, entry.path) || 'DATA_DIR');
    }
  });
}

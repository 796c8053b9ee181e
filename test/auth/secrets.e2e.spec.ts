import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import test from 'ava';

import { as, ok } from '../support/callers.js';
import { ADMIN_TOKEN, type ApiResponse, startService, type TestService } from '../support/startService.js';
import { kafkaMode } from '../support/testEventLog.js';

/** Every file under a directory, recursively. */
/** Every regular file under a directory (a socket, such as the admin socket, holds no bytes to read). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const stat = statSync(full);
    return stat.isDirectory() ? filesUnder(full) : stat.isFile() ? [full] : [];
  });
}

/** Every way a secret could be spelled in a file or a body. */
function spellings(secret: string): string[] {
  return [secret, secret.toUpperCase(), Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex')];
}

test('no clear token key or password in the event log, the data directory, the logs or any response but its creation', async (t) => {
  const logLines: string[] = [];
  const service: TestService = await startService({ ALLOW_TOKEN_RETRIEVAL: 'false' }, undefined, {
    logger: (entry) => logLines.push(JSON.stringify(entry)),
  });
  t.teardown(() => service.close());
  /** response text → the secrets it may show (a token's own creation response shows its key) */
  const responses: Array<{ what: string; text: string; mayShow: string[] }> = [];
  const record = async (what: string, call: Promise<ApiResponse>, mayShow: string[] = []) => {
    const response = await call;
    responses.push({ what, text: JSON.stringify(response.body) + JSON.stringify([...response.headers]), mayShow });
    return response;
  };

  const passwords = ['first-Pa55word!', 'second-Pa55word!', 'third-Pa55word!', 'admin-password'];
  const keys: string[] = [ADMIN_TOKEN];
  const alice = (
    await record('create user', service.api('POST', '/api/users/users/', { username: 'alice', password: passwords[0] }))
  ).body;
  await record(
    'put user',
    service.api('PUT', `/api/users/users/${alice.id}/`, { username: 'alice', password: passwords[1] }),
  );
  await record('patch user', service.api('PATCH', `/api/users/users/${alice.id}/`, { password: passwords[2] }));
  const supplied = 'fedcba9876543210fedcba9876543210fedcba98';
  keys.push(supplied);
  const created = await record(
    'token with a key',
    service.api('POST', '/api/users/tokens/', { user: alice.id, key: supplied }),
    [supplied],
  );
  const generated = await record('token without a key', service.api('POST', '/api/users/tokens/', { user: alice.id }));
  keys.push(generated.body.key);
  responses[responses.length - 1].mayShow.push(generated.body.key);
  const provisioned = await record(
    'provision',
    as(service, null)('POST', '/api/users/tokens/provision/', { username: 'alice', password: passwords[2] }),
  );
  keys.push(provisioned.body.key);
  responses[responses.length - 1].mayShow.push(provisioned.body.key);
  await record(
    'wrong password',
    as(service, null)('POST', '/api/users/tokens/provision/', { username: 'alice', password: passwords[0] }),
  );
  // a request that sets a key may echo it back (the client sent it)
  await record(
    'patch token',
    service.api('PATCH', `/api/users/tokens/${created.body.id}/`, { description: 'x', key: supplied }),
    [supplied],
  );
  await record('use tokens', as(service, supplied)('GET', '/api/users/tokens/'));
  await record('use tokens', as(service, generated.body.key)('GET', '/api/users/tokens/?brief=1'));
  for (const path of [
    '/api/users/tokens/',
    '/api/users/users/',
    `/api/users/tokens/${created.body.id}/`,
    '/api/users/tokens/?brief=1',
  ]) {
    await record(`GET ${path}`, service.api('GET', path));
  }
  const changes = await service.api('GET', '/api/extras/object-changes/?limit=0');
  if (changes.status === 200) {
    responses.push({ what: 'object changes', text: JSON.stringify(changes.body), mayShow: [] });
    for (const change of changes.body.results ?? []) {
      responses.push({
        what: 'object change',
        text: JSON.stringify((await service.api('GET', new URL(change.url).pathname)).body),
        mayShow: [],
      });
    }
  } else {
    t.log(`object changes not served (${changes.status}); the event log itself is scanned`);
  }
  await ok(service.api('DELETE', `/api/users/tokens/${created.body.id}/`), 204);
  await ok(service.api('DELETE', `/api/users/users/${alice.id}/`), 204);

  const secrets = [...keys, ...passwords];
  // the event log and everything else kept on disk
  const files = filesUnder(service.dataDir);
  // On Kafka the log is a topic (scanned below, as read back), not a file of the data directory.
  t.is(
    files.some((f) => f.endsWith('events.log')),
    !kafkaMode,
    'the event log file is scanned',
  );
  for (const file of files) {
    const bytes = readFileSync(file).toString('latin1');
    for (const secret of secrets)
      for (const spelling of spellings(secret))
        t.false(bytes.includes(spelling), `${path.basename(file)} holds a secret`);
  }
  // the events as read back, and the log lines
  const events: string[] = [];
  for await (const batch of service.services.log.read(1)) events.push(JSON.stringify(batch));
  for (const text of [...events, ...logLines]) for (const secret of secrets) t.false(text.includes(secret));
  // passwords never leave; a key only in the response that made it
  for (const { what, text, mayShow } of responses) {
    for (const secret of secrets) {
      if (!mayShow.includes(secret)) t.false(text.includes(secret), `${what} shows a secret`);
    }
  }
  // and the password is kept as a slow salted hash
  const stored = (await service.services.store.find('auth.user', { username: 'admin' }))[0];
  t.regex(String(stored.password), /^scrypt\$16384\$8\$1\$/);
});

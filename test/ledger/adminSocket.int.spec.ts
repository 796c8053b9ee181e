import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import type { AdminLedger } from '../../src/ledger/adminCommands.js';
import { adminSocketPath, connectAdminSocket, listenAdminSocket } from '../../src/ledger/AdminSocket.js';

function tempDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'nl-admin-'));
}

test("no service, or a dead one's socket file: the CLI is told none listens", async (t) => {
  const dir = tempDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.is(await connectAdminSocket(dir), null);
  mkdirSync(path.dirname(adminSocketPath(dir)), { recursive: true });
  writeFileSync(adminSocketPath(dir), '');
  t.is(await connectAdminSocket(dir), null);
});

test("the socket replaces a dead service's file, answers a refusal in one line and is gone after close", async (t) => {
  const dir = tempDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.dirname(adminSocketPath(dir)), { recursive: true });
  writeFileSync(adminSocketPath(dir), 'left over');
  const ledger = { store: { find: async () => [] } } as unknown as AdminLedger;
  const server = await listenAdminSocket(dir, ledger, () => {});
  t.truthy(server);
  const channel = await connectAdminSocket(dir);
  t.truthy(channel);
  const answer = await channel!.send({ command: 'create-token', input: { user: 'ghost', writeEnabled: true } });
  t.deepEqual(answer, { ok: false, message: 'Error: no user named "ghost".', exitCode: 1 });
  channel!.close();

  const raw = await new Promise<string>((resolve) => {
    const socket = net.connect(adminSocketPath(dir), () => socket.end('not json\n'));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('close', () => resolve(text));
  });
  t.deepEqual(JSON.parse(raw), { ok: false, message: 'Error: not an admin command.', exitCode: 2 });
  await server!.close();
  t.is(await connectAdminSocket(dir), null);
});

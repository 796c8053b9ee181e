import { once } from 'node:events';
import net from 'node:net';

import test from 'ava';

import { loadConfig } from '../../src/config.js';
import { ADMIN_TOKEN, startService, type TestService } from '../support/startService.js';

/** A raw connection to the service: what the test writes, and everything the server sent until it closed. */
function connect(service: TestService): { socket: net.Socket; connected: Promise<void>; closed: Promise<string> } {
  const { hostname, port } = new URL(service.url);
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => {}); // writing after the server closed: the close event still tells
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return {
    socket,
    connected: once(socket, 'connect').then(() => undefined),
    closed: once(socket, 'close').then(() => Buffer.concat(chunks).toString('utf8')),
  };
}

function headers(method: string, path: string, extra: Record<string, string | number>): string {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Host: localhost',
    ...Object.entries(extra).map(([k, v]) => `${k}: ${v}`),
  ];
  return lines.join('\r\n') + '\r\n\r\n';
}

function statusOf(response: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
}

function bodyOf(response: string): unknown {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
}

const JSON_WRITE = { Authorization: `Token ${ADMIN_TOKEN}`, 'Content-Type': 'application/json', 'Content-Length': 100 };

test('a body that stalls is answered 408 {"detail"} within BODY_TIMEOUT and the connection closed; nothing written', async (t) => {
  const service = await startService({ BODY_TIMEOUT: '0.2' });
  t.teardown(() => service.close());
  const head = service.services.log.head();
  const client = connect(service);
  client.socket.write(headers('POST', '/api/extras/tags/', JSON_WRITE) + '{"name": "slow", ');
  const response = await client.closed; // the server decides; the test only waits
  t.is(statusOf(response), 408, response);
  t.deepEqual(bodyOf(response), { detail: 'Request body not received within 0.2 seconds.' });
  t.regex(response, /\r\nConnection: close\r\n/i);
  t.is(service.services.log.head(), head);
});

test('a body dribbled a byte at a time is cut off at the same deadline', async (t) => {
  const service = await startService({ BODY_TIMEOUT: '0.2' });
  t.teardown(() => service.close());
  const client = connect(service);
  client.socket.write(headers('POST', '/api/extras/tags/', { ...JSON_WRITE, 'Content-Length': 1_000_000 }));
  const dribble = setInterval(() => client.socket.write(' '), 5);
  t.teardown(() => clearInterval(dribble));
  const response = await client.closed;
  clearInterval(dribble);
  t.is(statusOf(response), 408, response);
});

test('the login form and token provisioning read their bodies under the same deadline', async (t) => {
  const service = await startService({ BODY_TIMEOUT: '0.2' });
  t.teardown(() => service.close());
  for (const [path, type] of [
    ['/login/', 'application/x-www-form-urlencoded'],
    ['/api/users/tokens/provision/', 'application/json'],
  ]) {
    const client = connect(service);
    client.socket.write(headers('POST', path, { 'Content-Type': type, 'Content-Length': 50 }) + 'username=');
    const response = await client.closed;
    t.is(statusOf(response), 408, `${path}: ${response}`);
  }
});

test('headers that never finish are answered 408 by the server within HEADERS_TIMEOUT', async (t) => {
  const service = await startService({ HEADERS_TIMEOUT: '0.2', REQUEST_TIMEOUT: '0.4' });
  t.teardown(() => service.close());
  const client = connect(service);
  client.socket.write('GET /api/ HTTP/1.1\r\nHost: localhost\r\n'); // the blank line never comes
  const response = await client.closed;
  t.is(statusOf(response), 408, response);
});

test('timeouts are seconds (fractions allowed); HEADERS_TIMEOUT may not exceed REQUEST_TIMEOUT', (t) => {
  t.throws(() => loadConfig({ HEADERS_TIMEOUT: '10', REQUEST_TIMEOUT: '5', SECRET_KEY: 'k' }), {
    message: /HEADERS_TIMEOUT/,
  });
  t.is(loadConfig({ HEADERS_TIMEOUT: '0.25', SECRET_KEY: 'k' }).headersTimeoutMs, 250);
});

/** Open server-side connections, once the ones already closing have closed. */
async function settledConnections(service: TestService): Promise<number> {
  let previous = -1;
  for (;;) {
    await new Promise((resolve) => setImmediate(resolve));
    const count = await new Promise<number>((resolve, reject) =>
      service.server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
    );
    if (count === previous) return count;
    previous = count;
  }
}

test('with MAX_CONNECTIONS open, one more connection is closed unanswered; the open ones are still served', async (t) => {
  const service = await startService({ MAX_CONNECTIONS: '3' });
  t.teardown(() => service.close());
  // the test's own keep-alive connection from start-up would take a slot
  service.server.closeIdleConnections();
  while ((await settledConnections(service)) > 0) service.server.closeIdleConnections();
  const accepted = new Promise<void>((resolve) => {
    let count = 0;
    const onConnection = () => {
      if (++count < 3) return;
      service.server.off('connection', onConnection);
      resolve();
    };
    service.server.on('connection', onConnection);
  });
  const held = [connect(service), connect(service), connect(service)];
  await accepted;
  const dropped = once(service.server, 'drop');
  const extra = connect(service);
  await dropped;
  extra.socket.write(headers('GET', '/api/', { Authorization: `Token ${ADMIN_TOKEN}` }));
  t.is(await extra.closed, '', 'no answer on the connection over the cap');
  // a held connection is served as usual
  held[0].socket.write(headers('GET', '/api/', { Authorization: `Token ${ADMIN_TOKEN}`, Connection: 'close' }));
  t.is(statusOf(await held[0].closed), 200);
  for (const client of held) client.socket.destroy();
});

test('a stop ends a connection that never sent a request, instead of waiting for the headers deadline', async (t) => {
  // No deadlines: only the stop can end the connection.
  const service = await startService({ HEADERS_TIMEOUT: '0', REQUEST_TIMEOUT: '0' });
  const spare = connect(service);
  await spare.connected;
  // The server has taken the connection once a request on another one is answered.
  t.is((await service.api('GET', '/api/status/')).status, 200);
  await service.close();
  t.is(await spare.closed, '', 'closed unanswered');
});

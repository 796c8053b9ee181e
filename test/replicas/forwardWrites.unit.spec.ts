/**
 * A replica passes writes to the writer as they came and the writer's answer back as
 * it came; it refuses them, pointing at the writer, when it cannot.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

import test from 'ava';
import Koa from 'koa';

import { requestContext } from '../../src/api/middleware/requestContext.js';
import { forwardWrites } from '../../src/replicas/forwardWrites.js';
import { selfSigned } from '../support/selfSigned.js';
import { removeDir, tempDir } from '../support/tempDirs.js';

async function listen(server: http.Server | https.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${server instanceof https.Server ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A writer's answer to a write: 201 once it has read the body. */
function created(req: http.IncomingMessage, res: http.ServerResponse): void {
  req.resume();
  req.on('end', () => res.writeHead(201, { 'Content-Type': 'application/json' }).end('{}'));
}

/** The server listening, and closed when the test ends; its origin. */
async function serve(server: http.Server | https.Server, t: import('ava').ExecutionContext): Promise<string> {
  const url = await listen(server);
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return url;
}

/** A POST by Node's client; its status and body. */
async function post(
  url: string,
  body: string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<{ status?: number; text: string }> {
  const request = http.request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } });
  request.end(body);
  const [response] = (await once(request, 'response')) as [http.IncomingMessage];
  let text = '';
  for await (const chunk of response) text += chunk;
  return { status: response.statusCode, text };
}

/**
 * One keep-alive connection driven by hand, as a client such as pynetbox (requests)
 * uses one: it sends a whole request, body included, before it reads the answer.
 */
function rawConnection(url: string) {
  const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (text: string) => (received += text));
  return {
    /** Resolves once every byte was handed to the kernel: the peer is reading. */
    async send(head: string, body: Buffer): Promise<void> {
      socket.write(head);
      for (let offset = 0; offset < body.length; offset += 1 << 16) {
        if (!socket.write(body.subarray(offset, offset + (1 << 16)))) await once(socket, 'drain');
      }
    },
    /** Resolves once what was received so far matches. */
    received(pattern: RegExp): Promise<void> {
      return new Promise((resolve) => {
        const check = () => pattern.test(received) && (socket.off('data', check), resolve());
        socket.on('data', check);
        check();
      });
    },
    close: () => socket.destroy(),
  };
}

async function replicaFor(
  writerUrl: string | null,
  t: import('ava').ExecutionContext,
  answerTimeoutMs?: number,
): Promise<string> {
  const app = new Koa();
  // First, as in the service: it sets the origin the client addressed. The tests' client is
  // the replica's trusted proxy, when it sends forwarding headers.
  app.use(requestContext('3.4', () => ({ proto: true, host: true })));
  // As a replica that trusts no proxy finds its client: the socket's peer.
  app.use(
    forwardWrites({
      writerUrl,
      answerTimeoutMs,
      clientAddress: (ctx) => ctx.req.socket.remoteAddress ?? null,
      logger: () => {},
    }),
  );
  app.use((ctx) => {
    ctx.body = { served: 'by the replica' };
  });
  const server = http.createServer(app.callback());
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return listen(server);
}

test('a write goes to the writer with its method, path, query, body and end-to-end headers; the answer comes back with its status and headers', async (t) => {
  let seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string } | null = null;
  const writer = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen = { method: req.method, url: req.url, headers: req.headers, body };
      res.writeHead(412, {
        'Content-Type': 'application/json',
        'X-Request-ID': 'from-writer',
        'X-Netledger-Position': '42',
        'Set-Cookie': ['a=1', 'b=2'],
      });
      res.end('{"detail":"stale"}');
    });
  });
  const writerUrl = await serve(writer, t);
  const replica = await replicaFor(writerUrl, t);

  const response = await fetch(`${replica}/api/dcim/sites/7/?brief=1`, {
    method: 'PATCH',
    headers: {
      Authorization: 'Token abc',
      'Content-Type': 'application/json',
      'If-Match': '"3"',
      'Idempotency-Key': 'k-1',
      Cookie: 'sessionid=s',
      'X-Forwarded-For': '10.9.9.9',
      'X-Real-IP': '10.9.9.9', // claimed by the client: not passed on
    },
    body: '{"name":"x"}',
  });
  t.is(response.status, 412);
  t.is(await response.text(), '{"detail":"stale"}');
  t.is(response.headers.get('X-Request-ID'), 'from-writer');
  t.is(response.headers.get('X-Netledger-Position'), '42');
  t.deepEqual(response.headers.getSetCookie(), ['a=1', 'b=2']);
  t.is(response.headers.get('Via'), '1.1 netledger-replica');

  const got = seen!;
  t.is(got.method, 'PATCH');
  t.is(got.url, '/api/dcim/sites/7/?brief=1');
  t.is(got.body, '{"name":"x"}');
  t.like(got.headers, {
    authorization: 'Token abc',
    'content-type': 'application/json',
    'if-match': '"3"',
    'idempotency-key': 'k-1',
    cookie: 'sessionid=s',
    host: new URL(replica).host, // the address the client used
    'x-forwarded-host': new URL(replica).host,
    'x-forwarded-proto': 'http',
    via: '1.1 netledger-replica',
  });
  t.regex(String(got.headers['x-forwarded-for']), /^10\.9\.9\.9, (::ffff:)?127\.0\.0\.1$/);
  t.regex(String(got.headers['x-real-ip']), /^(::ffff:)?127\.0\.0\.1$/, 'the client as the replica found it');
});

test("behind a TLS-terminating proxy the writer is told the origin the client addressed (the proxy's X-Forwarded-Proto and X-Forwarded-Host), so its links name it", async (t) => {
  let seen: http.IncomingHttpHeaders | null = null;
  const writer = http.createServer((req, res) => {
    seen = req.headers;
    created(req, res);
  });
  const writerUrl = await serve(writer, t);
  const replica = await replicaFor(writerUrl, t);
  const response = await fetch(`${replica}/api/extras/tags/`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'client.example, netbox.example.com',
    },
    body: '{}',
  });
  t.is(response.status, 201);
  t.like(seen!, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'netbox.example.com' });
});

test("reads are the replica's own; writes are refused 503 with Retry-After and a pointer when the writer is unreachable or not configured", async (t) => {
  const closed = http.createServer();
  const deadUrl = await listen(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve())); // nobody listens there now
  const replica = await replicaFor(deadUrl, t);
  t.deepEqual(await (await fetch(`${replica}/api/`)).json(), { served: 'by the replica' });

  const refused = await fetch(`${replica}/api/extras/tags/`, {
    method: 'POST',
    body: '{}',
    headers: { 'Content-Type': 'application/json' },
  });
  t.is(refused.status, 503);
  t.is(refused.headers.get('Retry-After'), '5');
  t.is(refused.headers.get('X-Netledger-Writer'), deadUrl);
  t.regex(
    ((await refused.json()) as { detail: string }).detail,
    /writer at .* is unreachable \(ECONNREFUSED\): the write was not made/,
  );

  // A replica whose WRITER_URL leads to another replica refuses what was forwarded once, instead of looping.
  const looping = await fetch(`${await replicaFor('http://127.0.0.1:1', t)}/api/extras/tags/`, {
    method: 'POST',
    headers: { Via: '1.1 netledger-replica' },
  });
  t.is(looping.status, 503);
  t.regex(((await looping.json()) as { detail: string }).detail, /must name the writer, not a replica/);

  const alone = await replicaFor(null, t);
  const nowhere = await fetch(`${alone}/api/users/tokens/provision/`, { method: 'POST', body: '{}' });
  t.is(nowhere.status, 503);
  t.truthy(nowhere.headers.get('Retry-After'));
});

test('a writer that has the whole write and gives no answer is given up after WRITER_TIMEOUT: 504, the write may have been made; a slow upload does not count against it', async (t) => {
  const received: string[] = [];
  const sockets = new Set<net.Socket>();
  // Reads the whole body, then never answers (a writer stuck on its log).
  const writer = http.createServer((req) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => received.push(body));
  });
  writer.on('connection', (socket) => sockets.add(socket));
  const writerUrl = await listen(writer);
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        writer.close(() => resolve());
      }),
  );
  const replica = await replicaFor(writerUrl, t, 300);

  // The body trickles in for longer than the limit (twice it, at least: a pause, not a
  // measurement); the clock starts once all of it is sent.
  const request = http.request(`${replica}/api/dcim/sites/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
  });
  request.write('{"name":"s1",');
  await new Promise<void>((resolve) => setTimeout(resolve, 600));
  request.end('"slug":"s1"}');
  const [response] = (await once(request, 'response')) as [http.IncomingMessage];
  let text = '';
  for await (const chunk of response) text += chunk;
  t.is(response.statusCode, 504);
  t.is(response.headers['x-netledger-writer'], writerUrl);
  t.regex(
    (JSON.parse(text) as { detail: string }).detail,
    /did not answer within 0\.3 s: the write may or may not have been made/,
  );
  t.deepEqual(received, ['{"name":"s1","slug":"s1"}'], 'the writer had the whole body before the replica gave up');
});

test('a write with a malformed or missing Host is still forwarded (the address the replica was reached at stands in for its links), not answered 500', async (t) => {
  const hosts: Array<string | undefined> = [];
  const writer = http.createServer((req, res) => {
    hosts.push(req.headers['x-forwarded-host'] as string | undefined);
    created(req, res);
  });
  const writerUrl = await serve(writer, t);
  const replica = await replicaFor(writerUrl, t);
  const client = rawConnection(replica);
  t.teardown(() => client.close());
  const body = Buffer.from('{}');
  await client.send(
    `POST /api/extras/tags/ HTTP/1.1\r\nHost: a b\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    body,
  );
  await client.received(/^HTTP\/1\.1 201 /);
  t.is(hosts[0], new URL(replica).host);
});

test('a request target that looks like another host (//elsewhere/...) still goes to the writer, credentials included', async (t) => {
  const seen: string[] = [];
  const writer = http.createServer((req, res) => {
    seen.push(`${req.headers.host} ${req.url}`);
    res.writeHead(201, { 'Content-Type': 'application/json' });
    res.end('{}');
  });
  const writerUrl = await serve(writer, t);
  const replica = new URL(await replicaFor(writerUrl, t));
  // fetch would normalise the path; a raw request keeps the target as a client could send it.
  const status = await new Promise<number>((resolve, reject) => {
    const request = http.request(
      {
        host: replica.hostname,
        port: replica.port,
        method: 'POST',
        path: '//attacker.example/api/dcim/sites/',
        headers: { Authorization: 'Token secret', 'Content-Type': 'application/json' },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end('{}');
  });
  t.is(status, 201);
  t.is(seen.length, 1);
  t.regex(seen[0]!, /\/attacker\.example\/api\/dcim\/sites\/$/, 'the path reached the writer as a path');
});

test('a writer that answers before it has read the body (413 on Content-Length) ends the forwarding: the client gets the answer, its upload is read to the end and its connection serves the next write', async (t) => {
  const writer = http.createServer((req, res) => {
    if (Number(req.headers['content-length']) > 1_000) {
      // As the writer answers a body declared over MAX_BODY_BYTES: at once, reading none of it.
      res.writeHead(413, { 'Content-Type': 'application/json' });
      res.end('{"detail":"Request body exceeds the limit of 1000 bytes."}');
      return;
    }
    created(req, res);
  });
  const writerUrl = await serve(writer, t);
  const replica = await replicaFor(writerUrl, t);
  const client = rawConnection(replica);
  t.teardown(() => client.close());

  const big = Buffer.alloc(20 << 20, 0x20);
  await client.send(
    `POST /api/extras/image-attachments/ HTTP/1.1\r\nHost: replica\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n`,
    big,
  );
  await client.received(/^HTTP\/1\.1 413 [^]*\{"detail":"Request body exceeds the limit of 1000 bytes\."\}/);
  // The whole body was taken in though the writer wanted none of it, and the connection goes on.
  const small = Buffer.from('{"name":"t","slug":"t"}');
  await client.send(
    `POST /api/extras/tags/ HTTP/1.1\r\nHost: replica\r\nContent-Type: application/json\r\nContent-Length: ${small.length}\r\n\r\n`,
    small,
  );
  await client.received(/\r\n\r\nHTTP\/1\.1 201 /);
  t.pass();
});

test("headers the Connection header names belong to one hop: neither the request's nor the answer's are passed on", async (t) => {
  let seen: http.IncomingHttpHeaders = {};
  const writer = http.createServer((req, res) => {
    seen = req.headers;
    req.resume();
    req.on('end', () =>
      res
        .writeHead(201, { Connection: 'keep-alive, X-Writer-Hop', 'X-Writer-Hop': 'w', 'X-Writer-End': 'e' })
        .end('{}'),
    );
  });
  const writerUrl = await serve(writer, t);
  const replica = await replicaFor(writerUrl, t);
  const request = http.request(`${replica}/api/extras/tags/`, {
    method: 'POST',
    headers: { Connection: 'keep-alive, X-Client-Hop', 'X-Client-Hop': 'c', 'X-Client-End': 'e' },
  });
  request.end('{}');
  const [response] = (await once(request, 'response')) as [http.IncomingMessage];
  response.resume();
  t.is(response.statusCode, 201);
  t.like(response.headers, { 'x-writer-end': 'e' });
  t.false('x-writer-hop' in response.headers);
  t.like(seen, { 'x-client-end': 'e' });
  t.false('x-client-hop' in seen);
});

test("over HTTPS, the writer's certificate is checked against the writer's name, not the Host the client gave the replica; a failed handshake means the write was not made", async (t) => {
  const dir = tempDir('forward-tls-');
  t.teardown(() => removeDir(dir));
  const files = selfSigned(dir, 'localhost');
  if (!files) {
    t.log('skipped: openssl is not available to make a certificate');
    t.pass();
    return;
  }
  const seen: Array<{ host?: string; servername: string | false | null }> = [];
  const writer = https.createServer({ key: readFileSync(files.key), cert: readFileSync(files.cert) }, (req, res) => {
    seen.push({ host: req.headers.host, servername: (req.socket as TLSSocket).servername });
    created(req, res);
  });
  const port = new URL(await listen(writer)).port;
  t.teardown(() => new Promise<void>((resolve) => writer.close(() => resolve())));
  const writerUrl = `https://localhost:${port}`;
  const replica = await replicaFor(writerUrl, t);
  const write = () => post(`${replica}/api/dcim/sites/`, '{}', { Host: 'replica.example:8001' });

  const untrusted = await write();
  t.is(untrusted.status, 503);
  t.regex(
    JSON.parse(untrusted.text).detail,
    /writer at https:\/\/localhost:\d+ is unreachable \(.+\): the write was not made/,
  );
  t.deepEqual(seen, []);

  https.globalAgent.options.ca = readFileSync(files.cert); // the replica now trusts the writer (this test's process only)
  t.is((await write()).status, 201);
  t.deepEqual(seen, [{ host: 'replica.example:8001', servername: 'localhost' }]);
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';

import test, { type ExecutionContext } from 'ava';

import { MAX_ANSWER_BYTES, sendRequest, type TransportOptions } from '../../src/webhooks/sendRequest.js';

const OPTIONS: TransportOptions = { sslVerification: true, caFilePath: null, timeoutMs: 10_000 };

async function receiver(t: ExecutionContext, handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

const post = (url: string) => ({ method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body: '{}' });

test('the timeout is a deadline for the whole attempt: a receiver trickling its answer a byte at a time is cut off', async (t) => {
  t.timeout(8000);
  const url = await receiver(t, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    const drip = setInterval(() => res.write('.'), 20); // never idle for long: an idle timeout never fires
    res.on('close', () => clearInterval(drip));
  });
  const started = Date.now();
  const result = await sendRequest(post(url), { ...OPTIONS, timeoutMs: 1000 });
  // The status is 200 once the headers came in time (null on a machine too loaded for that): the error decides.
  t.is(result.error, 'no complete answer within 1000 ms');
  t.true(Date.now() - started < 4000, 'ends at the deadline, not when the receiver stops');
});

test('the deadline also covers a receiver that accepts the request and trickles its headers', async (t) => {
  t.timeout(5000);
  const url = await receiver(t, (req, res) => {
    const socket = res.socket!;
    socket.write('HTTP/1.1 200 OK\r\n');
    const drip = setInterval(() => socket.write('X-Slow: a\r\n'), 20);
    socket.on('close', () => clearInterval(drip));
  });
  const result = await sendRequest(post(url), { ...OPTIONS, timeoutMs: 300 });
  t.deepEqual(result, { status: null, error: 'no complete answer within 300 ms' });
});

test('a huge answer is read only up to a cap: the status decides, the record keeps its start, the rest is never downloaded', async (t) => {
  t.timeout(10_000);
  let sent = 0;
  const total = 200 * 1024 * 1024;
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let closed!: () => void;
  const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
  const url = await receiver(t, (req, res) => {
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    const pump = () => {
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', closed);
    pump();
  });
  const result = await sendRequest(post(url), OPTIONS);
  t.is(result.status, 500);
  t.is(result.error, `Status 500 returned with content '${'x'.repeat(500)}'`);
  await connectionClosed;
  t.true(sent < 32 * 1024 * 1024, `the receiver got to send ${sent} bytes (cap ${MAX_ANSWER_BYTES})`);
});

test('a 2xx answer with a huge body is a success without downloading it', async (t) => {
  t.timeout(10_000);
  const url = await receiver(t, (req, res) => {
    res.writeHead(200);
    const chunk = Buffer.alloc(64 * 1024, 'y');
    const pump = () => {
      while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
    };
    pump();
  });
  t.deepEqual(await sendRequest(post(url), OPTIONS), { status: 200, error: null });
});

test("an address the caller refuses (the service's own) is never called, whether an IP literal or a resolved name", async (t) => {
  let called = 0;
  const url = await receiver(t, (req, res) => {
    called++;
    res.writeHead(204).end();
  });
  const port = Number(new URL(url).port);
  const refuseAddress = (address: string, p: number) =>
    p === port && /^(127\.|::1$)/.test(address) ? `own address ${address}:${p}` : null;
  const literal = await sendRequest(post(url), { ...OPTIONS, refuseAddress });
  t.deepEqual(literal, { status: null, error: `own address 127.0.0.1:${port}`, final: true }, 'final: never retried');
  const named = await sendRequest(post(url.replace('127.0.0.1', 'localhost')), { ...OPTIONS, refuseAddress });
  t.is(named.status, null);
  t.true(named.final);
  t.regex(named.error!, /^own address (127\.0\.0\.1|::1):\d+$/);
  t.is(called, 0);
  t.deepEqual(await sendRequest(post(url), { ...OPTIONS, refuseAddress: () => null }), { status: 204, error: null });
  t.is(called, 1);
});

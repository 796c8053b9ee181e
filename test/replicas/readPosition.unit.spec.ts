/**
 * The read-your-writes wait gives up at its bound: the read is answered 503, and what it
 * waited on is told to stop, so reads naming a position that never comes leave nothing behind.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import test from 'ava';
import Koa from 'koa';

import { type PositionSources, readPosition } from '../../src/replicas/readPosition.js';

test('a read whose position is not reached within the bound is 503 and its waits are abandoned', async (t) => {
  const signals: AbortSignal[] = [];
  const sources: PositionSources = {
    position: () => 7,
    waitFor: (_position, signal) => (signals.push(signal), new Promise(() => {})),
    positionOfRequest: (_requestId, signal) => (signals.push(signal), new Promise(() => {})),
    waitMs: 20,
  };
  const app = new Koa();
  app.use(readPosition(sources));
  app.use((ctx) => void (ctx.body = { read: true }));
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/dcim/sites/`;

  const ahead = await fetch(url, { headers: { 'X-Netledger-Position': '999999999' } });
  t.is(ahead.status, 503);
  t.is(ahead.headers.get('X-Netledger-Position'), '7');
  const unknown = await fetch(url, {
    headers: { 'X-Netledger-After-Request': '7d3c2b8e-4f7e-4b7a-9d55-0c2f0a3f1b11' },
  });
  t.is(unknown.status, 503);
  t.is(signals.length, 2);
  t.true(signals.every((signal) => signal.aborted));
});

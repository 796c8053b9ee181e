import type { IncomingMessage } from 'node:http';

import test from 'ava';

import { AnswerCache, type CachedAnswer } from '../../src/api/answerCache/AnswerCache.js';
import { plainReadKey } from '../../src/api/answerCache/plainRead.js';

const answer = (position: number, bytes: number): CachedAnswer => ({
  position,
  headers: [['content-type', 'application/json']],
  body: Buffer.alloc(bytes),
  route: '/api/dcim/sites/',
  user: 'alice',
});

test('an answer is good only at the position it was made at; a stale one is dropped when met', (t) => {
  const cache = new AnswerCache(1024 * 1024);
  cache.set('GET /a', 'token:1', answer(7, 10));
  t.truthy(cache.get('GET /a', 'token:1', 7));
  t.is(cache.get('GET /a', 'token:2', 7), null, 'another caller has no answer');
  t.is(cache.get('GET /a', 'token:1', 8), null);
  t.is(cache.size, 0);
  t.false(cache.holdsRequest('GET /a'));
});

test('the cache holds at most its bytes, dropping the least recently used first', (t) => {
  const cache = new AnswerCache(64 * 1024);
  for (let i = 0; i < 20; i++) cache.set(`GET /${i}`, 'anonymous', answer(1, 4000));
  t.true(cache.size < 20);
  t.truthy(cache.get('GET /19', 'anonymous', 1), 'the newest is kept');
  t.is(cache.get('GET /0', 'anonymous', 1), null, 'the oldest went first');
  cache.set('GET /big', 'anonymous', answer(1, 64 * 1024));
  t.is(cache.get('GET /big', 'anonymous', 1), null, 'an answer over an eighth of the cache is not kept');
});

test('only plain GETs of the API with harmless headers have a key; host and Accept are part of it', (t) => {
  const request = (method: string, url: string, headers: Record<string, string> = {}) =>
    ({ method, url, headers: { host: 'h', ...headers } }) as unknown as IncomingMessage;
  t.truthy(plainReadKey(request('GET', '/api/dcim/sites/?limit=5', { authorization: 'Token x', accept: '*/*' })));
  t.is(plainReadKey(request('POST', '/api/dcim/sites/')), null);
  t.is(plainReadKey(request('GET', '/login/')), null);
  t.is(plainReadKey(request('GET', '/api/dcim/sites/', { cookie: 'sessionid=1' })), null);
  t.is(plainReadKey(request('GET', '/api/dcim/sites/', { 'if-none-match': '"1"' })), null);
  t.is(plainReadKey(request('GET', '/api/dcim/sites/', { 'x-forwarded-host': 'other' })), null);
  t.is(plainReadKey(request('GET', '/api/dcim/sites/?as%5Fof=3')), null);
  t.is(plainReadKey(request('GET', '/api/dcim/sites/?export=x')), null);
  t.not(
    plainReadKey(request('GET', '/api/dcim/sites/', { accept: 'application/json' })),
    plainReadKey(request('GET', '/api/dcim/sites/', { accept: 'text/html' })),
  );
});

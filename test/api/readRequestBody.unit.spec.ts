import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';

import test from 'ava';

import { readRequestBody } from '../../src/api/middleware/readRequestBody.js';

/** A stand-in request stream the test feeds by hand. */
function request(): PassThrough & IncomingMessage {
  return new PassThrough() as unknown as PassThrough & IncomingMessage;
}

test('a complete body is returned whole', async (t) => {
  const req = request();
  const read = readRequestBody(req, { maxBytes: 100, timeoutMs: 0 });
  req.write('{"a":');
  req.end('1}');
  t.deepEqual(await read, { outcome: 'complete', bytes: Buffer.from('{"a":1}') });
});

test('a body over the cap stops the read at once: tooLarge', async (t) => {
  const req = request();
  const read = readRequestBody(req, { maxBytes: 4, timeoutMs: 0 });
  req.write('12345'); // the stream is never ended
  t.deepEqual(await read, { outcome: 'tooLarge' });
});

test('a body that stalls before its end is a timeout', async (t) => {
  const req = request();
  const read = readRequestBody(req, { maxBytes: 100, timeoutMs: 20 });
  req.write('{"a":'); // and nothing more
  t.deepEqual(await read, { outcome: 'timeout' });
});

test('a client that goes away mid-body is aborted', async (t) => {
  const req = request();
  const read = readRequestBody(req, { maxBytes: 100, timeoutMs: 0 });
  req.write('{"a":');
  req.destroy(new Error('aborted'));
  t.deepEqual(await read, { outcome: 'aborted' });
});

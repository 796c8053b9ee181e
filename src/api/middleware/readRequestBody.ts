import type { IncomingMessage } from 'node:http';

import type { Context } from 'koa';

export interface BodyLimits {
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Time the client has to send the whole body, in milliseconds; 0 waits forever. */
  timeoutMs: number;
}

export type BodyRead =
  | { outcome: 'complete'; bytes: Buffer }
  | { outcome: 'tooLarge' }
  | { outcome: 'timeout' }
  /** The client went away (or the stream failed) before the end of the body. */
  | { outcome: 'aborted' };

/**
 * Reads a request body under a size cap and a deadline: a client that stalls or
 * dribbles its body would otherwise hold a connection and a buffer for as long as it
 * likes. Whatever the client sends after the decision is discarded.
 */
export function readRequestBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (read: BodyRead) => {
      if (timer) clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
      if (read.outcome !== 'complete') req.resume(); // drain and drop the rest
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) return finish({ outcome: 'tooLarge' });
      chunks.push(chunk);
    };
    const onEnd = () => finish({ outcome: 'complete', bytes: Buffer.concat(chunks, size) });
    const onAbort = () => finish({ outcome: 'aborted' });
    const timer = limits.timeoutMs > 0 ? setTimeout(() => finish({ outcome: 'timeout' }), limits.timeoutMs) : null;
    if (req.readableEnded) return finish({ outcome: 'complete', bytes: Buffer.alloc(0) });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}

/**
 * The answer to a body that was not read whole, in NetBox's `{"detail"}` shape. After a
 * timeout the connection is closed: the rest of the body is not worth waiting for. An
 * oversized body is drained instead (under REQUEST_TIMEOUT), so that a client still
 * sending it reads the 413 rather than a reset connection.
 */
export function refuseBody(ctx: Context, read: Exclude<BodyRead, { outcome: 'complete' }>, limits: BodyLimits): void {
  if (read.outcome === 'tooLarge') {
    ctx.status = 413;
    ctx.body = { detail: `Request body exceeds the limit of ${limits.maxBytes} bytes.` };
  } else if (read.outcome === 'timeout') {
    ctx.set('Connection', 'close');
    ctx.status = 408;
    ctx.body = { detail: `Request body not received within ${limits.timeoutMs / 1000} seconds.` };
  } else {
    ctx.status = 400;
    ctx.body = { detail: 'Request body incomplete: the client closed the connection.' };
  }
}

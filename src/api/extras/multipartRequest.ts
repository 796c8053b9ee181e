import type { Context } from 'koa';

import { type MultipartRead, readMultipartBody } from '../middleware/readMultipartBody.js';
import { refuseBody } from '../middleware/readRequestBody.js';
import type { Services } from '../Services.js';

/**
 * A multipart request's fields and files within the service's body limits, or null once
 * the request has been answered: 413 for a body over the limit (by its Content-Length
 * before reading, or while reading), 400 for a malformed one, 408 for one too slow.
 */
export async function readMultipartRequest(
  services: Services,
  ctx: Context,
): Promise<Extract<MultipartRead, { outcome: 'complete' }> | null> {
  const limits = { maxBytes: services.config.maxBodyBytes, timeoutMs: services.config.bodyTimeoutMs };
  if (Number(ctx.get('Content-Length') || 0) > limits.maxBytes) {
    refuseBody(ctx, { outcome: 'tooLarge' }, limits);
    return null;
  }
  const read = await readMultipartBody(ctx.req, limits);
  if (read.outcome === 'malformed') {
    ctx.status = 400;
    ctx.body = { detail: read.detail };
    return null;
  }
  if (read.outcome !== 'complete') {
    refuseBody(ctx, read, limits);
    return null;
  }
  return read;
}

import type { Context } from 'koa';

import type { AuditService } from '../../audit/AuditService.js';
import { PastStateCancelledError, PastStatesBusyError } from '../../audit/PastStates.js';
import { PermissionDeniedError } from '../../errors/requestErrors.js';
import type { ReadStore } from '../../projections/ReadStore.js';
import type { Services } from '../Services.js';
import { readableChanges } from './changePermission.js';

/**
 * The read models as they were at `asOf`, for the request's reads (`ctx.state.readStore`,
 * `X-As-Of-Position`), on REST views and /graphql/ alike. A past state is made of change
 * records, so the caller must be able to read every one of them (403 otherwise). Null when the
 * answer is already given: a 503 while past states are busy, or once the client has gone
 * (nobody reads that answer, and the build it started is dropped).
 */
export async function openPastStore(
  ctx: Context,
  services: Services,
  audit: AuditService,
  asOf: string,
): Promise<ReadStore | null> {
  if ((await readableChanges(ctx, services, audit)) !== null) throw new PermissionDeniedError();
  const position = await audit.asOfPosition(asOf);
  const gone = new AbortController();
  const onClose = () => {
    if (!ctx.res.writableFinished) gone.abort();
  };
  ctx.res.once('close', onClose);
  let store: ReadStore;
  try {
    store = await audit.pastStore(position, gone.signal);
  } catch (error) {
    if (!(error instanceof PastStatesBusyError) && !(error instanceof PastStateCancelledError)) throw error;
    ctx.status = 503;
    if (error instanceof PastStatesBusyError) ctx.set('Retry-After', String(error.retryAfterSeconds));
    ctx.body = { detail: error.message };
    return null;
  } finally {
    ctx.res.off('close', onClose);
  }
  ctx.set('X-As-Of-Position', String(position));
  ctx.state.readStore = store;
  return store;
}

/**
 * `?as_of=` on /graphql/: the query reads the read models as they were then, under the
 * rule of the REST views' `?as_of=` (src/api/audit/auditApi.ts): the caller must read every
 * change record the past state is made of (extras.view_objectchange without constraints);
 * each object is still narrowed by the caller's view permissions, applied to the past state.
 */
import type { Context } from 'koa';

import { ValidationError } from '../../errors/requestErrors.js';
import type { ReadStore } from '../../projections/ReadStore.js';
import { openPastStore } from '../audit/pastStore.js';
import type { Services } from '../Services.js';

/** The past read models `?as_of=` names, null without it, 'answered' when the answer is already given (503). */
export async function pastStateFor(services: Services, ctx: Context): Promise<ReadStore | null | 'answered'> {
  const values = new URLSearchParams(ctx.querystring).getAll('as_of').filter((v) => v !== '');
  if (values.length === 0) return null;
  const audit = services.audit;
  if (!audit) throw new ValidationError({ as_of: ['Past states are not kept by this service.'] });
  return (await openPastStore(ctx, services, audit, values[values.length - 1]!)) ?? 'answered';
}

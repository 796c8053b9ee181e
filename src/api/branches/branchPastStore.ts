import type { Context } from 'koa';

import type { AuditService } from '../../audit/AuditService.js';
import type { BranchView } from '../../branches/BranchView.js';
import { projectBranchEvents } from '../../branches/BranchView.js';
import { OverlaidReadStore } from '../../branches/OverlaidReadStore.js';
import type { ReadStore } from '../../projections/ReadStore.js';
import { openPastStore } from '../audit/pastStore.js';
import type { Services } from '../Services.js';

/**
 * `?as_of=` inside a branch: main's read models at that position, or at the fork when it is
 * later (the branch never saw main after it), with the branch's own changes up to that
 * position projected on top. Made of change records like any past state, under the same
 * rule (the caller reads every change, else 403). Null when the answer is already given (a 503).
 */
export async function openBranchPast(
  ctx: Context,
  services: Services,
  audit: AuditService,
  view: BranchView,
  asOf: string,
): Promise<ReadStore | null> {
  const position = await audit.asOfPosition(asOf);
  const base = await openPastStore(ctx, services, audit, String(Math.min(position, view.fork)));
  if (!base) return null;
  const store = new OverlaidReadStore(base);
  await projectBranchEvents(
    services.registry,
    store,
    view.own.filter((event) => event.position <= position),
  );
  ctx.set('X-As-Of-Position', String(position));
  return store;
}

import { PreconditionFailedError } from '../errors/requestErrors.js';
import type { LookupView } from '../models/lookupView.js';
import type { ModelDefinition } from '../models/modelDefinition.js';

/**
 * The versions of an object a client will accept a write at, from If-Match: log
 * positions (each position wrote exactly one object, so a version names its object
 * too), or 'any' for `*`.
 */
export type ExpectedVersions = ReadonlySet<number> | 'any';

/** One object a request writes must still be at one of these versions. */
export interface Precondition {
  id: number;
  versions: ExpectedVersions;
}

/**
 * Refuse the whole request (412) unless every object named is still at a version its
 * client accepts. Runs inside the write decision, against everything decided before
 * it, so no other write can slip in between the check and the write. An object that
 * does not exist is left to the write itself (404, or a failed element of a bulk request).
 */
export async function checkPreconditions(
  view: LookupView,
  definition: ModelDefinition,
  preconditions: readonly Precondition[],
  { bulk }: { bulk: boolean },
): Promise<void> {
  const stale = new Map<number, string>();
  for (const { id, versions } of preconditions) {
    if (versions === 'any' || stale.has(id)) continue;
    const current = await view.get(definition.key, id);
    if (!current) continue;
    if (!versions.has(current._pos as number)) stale.set(id, `${String(current.display ?? id)} (${id})`);
  }
  if (stale.size === 0) return;
  throw new PreconditionFailedError(bulk ? [...stale.values()] : undefined);
}

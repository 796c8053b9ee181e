import { conditionsMet, InvalidConditions } from '../models/extras/webhookConditions.js';

/**
 * What became of one webhook's conditions on one change: met or not; `invalid`, a rule set
 * stored before a check refused it (the webhook is skipped for this change, as before);
 * `failed`, it could not be evaluated at all (nested past the stack, past the time or
 * memory limit): that webhook's delivery of this change is recorded as failed.
 */
export type Verdict = { met: boolean } | { invalid: string } | { failed: string };

/** The verdict of one stored rule set on the changed object's API form, on this thread. */
export function verdictOf(conditions: unknown, data: unknown): Verdict {
  try {
    return { met: conditionsMet(conditions, data) };
  } catch (error) {
    if (error instanceof InvalidConditions) return { invalid: error.message };
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Writes that make further writes in the same request (components instantiated from
 * templates, a cable path recomputed): what a follow-up hook is given and what it answers.
 */
import type { LookupView } from './lookupView.js';
import type { ModelCatalog } from './modelCatalog.js';
import type { StoredObject } from './storedObject.js';

/**
 * A further change a write makes in the same request (components instantiated from
 * templates, module components adopted, a cable path recomputed). Decided like a
 * client's request (same validation and rules), recorded as ordinary events of the
 * same request, so object-changes, revert, as_of and replay see them like any other.
 */
export type FollowUpCommand =
  | { kind: 'create'; model: string; input: Record<string, unknown> }
  | { kind: 'update'; model: string; id: number; input: Record<string, unknown> }
  | { kind: 'delete'; model: string; id: number }
  /**
   * Sets read-only values the model keeps for another (a port's `cable` and `cable_end`,
   * kept by its cable): recorded as an update event without the client's field checks,
   * rules or further follow-ups, and without touching `last_updated`, as NetBox writes them.
   */
  | { kind: 'set'; model: string; id: number; values: Record<string, unknown> };

/** The change a follow-up hook reacts to: the object as just decided, and as it was. */
export interface DecidedChange {
  action: 'create' | 'update';
  obj: StoredObject;
  previous: StoredObject | null;
}

export interface FollowUpHooks {
  /**
   * The further changes this object's create or update makes, run inside the single
   * writer right after it is recorded: the view already holds it (and everything earlier
   * in the request). Each command is decided in turn and may have follow-ups of its own;
   * any refusal refuses the whole request (a bulk request's items alike), and nothing is
   * written. Keep it to what the object itself implies: the hook runs on every write.
   */
  followUps?(
    change: DecidedChange,
    view: LookupView,
    models: ModelCatalog,
  ): Promise<FollowUpCommand[]> | FollowUpCommand[];
}

import type { FieldErrors } from '../errors/fieldErrors.js';
import { ValidationError } from '../errors/requestErrors.js';
import { TurnBudget } from '../eventLoopTurns.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { StoredObject } from '../models/storedObject.js';
import type { ReadDocument } from '../projections/ReadStore.js';
import type { CommandEnvironment, DecidedObject } from './decideObject.js';
import type { WriteTransaction } from './WriteCoordinator.js';
import type { WriteShape } from './writeShape.js';

export interface WriteOutcome {
  ids: number[];
  /**
   * What the request wrote for each of `ids`, as read documents with the position that
   * wrote them. Its response renders these: by the time it is answered the read models
   * may already hold later requests' writes to the same objects.
   */
  documents: ReadDocument[];
  revealed: Map<number, Record<string, unknown>>;
}

export interface DecidedItem {
  id: number;
  previous: StoredObject | null;
  decided: DecidedObject;
}

/**
 * Decide every item of a request and record a create or update event for each, followed
 * by the further changes its model declares (`hooks.followUps`).
 * All-or-none: a single request rethrows its error; a bulk request collects one
 * entry per item (`{}` for the good ones) and fails as a whole if any item failed.
 */
export async function recordEach<T>(
  env: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  items: T[],
  { bulk }: WriteShape,
  decideItem: (item: T) => Promise<DecidedItem>,
): Promise<WriteOutcome> {
  const outcome: WriteOutcome = { ids: [], documents: [], revealed: new Map() };
  const errors: FieldErrors[] = [];
  let failed = false;
  // The decision lock is held throughout: a turn lets reads in, not another write.
  const budget = new TurnBudget();
  for (const item of items) {
    if (budget.due()) await budget.pause();
    try {
      const { id, previous, decided } = await decideItem(item);
      const event = tx.record({
        action: previous ? 'update' : 'create',
        objectType: definition.key,
        objectId: id,
        objectRepr: decided.repr,
        prechange: previous,
        postchange: decided.obj,
        related: definition.hooks?.relatedObject?.(decided.obj) ?? null,
      });
      await env.followUps(env, tx, definition, { action: previous ? 'update' : 'create', obj: decided.obj, previous });
      outcome.ids.push(id);
      outcome.documents.push(tx.documentOf(event)!);
      if (Object.keys(decided.revealed).length) outcome.revealed.set(id, decided.revealed);
      errors.push({});
    } catch (error) {
      if (!bulk || !(error instanceof ValidationError) || Array.isArray(error.body)) throw error;
      failed = true;
      errors.push(error.body);
    }
  }
  if (failed) throw new ValidationError(errors);
  return outcome;
}

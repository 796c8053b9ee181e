import type { ModelDefinition } from '../models/types.js';
import { decideObject, type CommandEnvironment } from './decideObject.js';
import { ValidationError } from './errors.js';
import type { WriteTransaction } from './WriteCoordinator.js';
import type { FieldErrors } from '../models/types.js';

export interface WriteOutcome {
  ids: number[];
  revealed: Map<number, Record<string, unknown>>;
}

/**
 * POST: create one object or, from an array, several in one atomic request. Every
 * item is validated (later items see earlier ones, so duplicates within a request
 * are caught); any failure answers with errors aligned to the input and writes nothing.
 */
export async function createObjects(
  env: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  items: unknown[],
  bulk: boolean,
): Promise<WriteOutcome> {
  const outcome: WriteOutcome = { ids: [], revealed: new Map() };
  const errors: FieldErrors[] = [];
  let failed = false;
  for (const item of items) {
    try {
      const id = tx.allocateId(definition.key);
      const decided = await decideObject(env, tx.view, definition, item, null, 'create', id, tx.time);
      tx.record({
        action: 'create',
        objectType: definition.key,
        objectId: id,
        objectRepr: decided.repr,
        prechange: null,
        postchange: decided.obj,
        related: definition.hooks?.relatedObject?.(decided.obj) ?? null,
      });
      outcome.ids.push(id);
      if (Object.keys(decided.revealed).length) outcome.revealed.set(id, decided.revealed);
      errors.push({});
    } catch (error) {
      if (!(error instanceof ValidationError) || Array.isArray(error.body)) throw error;
      if (!bulk) throw error;
      failed = true;
      errors.push(error.body);
    }
  }
  if (failed) throw new ValidationError(errors);
  return outcome;
}

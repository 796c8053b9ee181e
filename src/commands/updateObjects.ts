import type { FieldErrors, ModelDefinition } from '../models/types.js';
import { decideObject, type CommandEnvironment } from './decideObject.js';
import { NotFoundError, ValidationError } from './errors.js';
import { storedForm } from './storedForm.js';
import type { WriteOutcome } from './createObjects.js';
import type { WriteTransaction } from './WriteCoordinator.js';

export interface UpdateItem {
  id: number;
  input: unknown;
}

/**
 * PUT/PATCH of one object, or of several from the list view. All-or-none: one bad
 * element (invalid value, unknown id) aborts the request; bulk errors come back as a
 * list aligned with the input, `{}` for the good elements.
 */
export async function updateObjects(
  env: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  items: UpdateItem[],
  mode: 'put' | 'patch',
  bulk: boolean,
): Promise<WriteOutcome> {
  const outcome: WriteOutcome = { ids: [], revealed: new Map() };
  const errors: FieldErrors[] = [];
  let failed = false;
  for (const { id, input } of items) {
    try {
      const current = await tx.view.get(definition.key, id);
      if (!current) {
        if (!bulk) throw new NotFoundError();
        throw new ValidationError({ id: [`Object with id ${id} does not exist.`] });
      }
      const previous = storedForm(current);
      const decided = await decideObject(env, tx.view, definition, input, previous, mode, id, tx.time);
      tx.record({
        action: 'update',
        objectType: definition.key,
        objectId: id,
        objectRepr: decided.repr,
        prechange: previous,
        postchange: decided.obj,
        related: definition.hooks?.relatedObject?.(decided.obj) ?? null,
      });
      outcome.ids.push(id);
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

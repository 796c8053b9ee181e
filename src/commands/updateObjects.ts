import { NotFoundError, ValidationError } from '../errors/requestErrors.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import { withRequestPatternChecks } from './customFieldData.js';
import { type CommandEnvironment, decideObject } from './decideObject.js';
import { checkPreconditions } from './preconditions.js';
import { recordEach, type WriteOutcome } from './recordEach.js';
import { storedForm } from './storedForm.js';
import type { WriteTransaction } from './WriteCoordinator.js';
import type { ExistingObjectsWrite } from './writeShape.js';

export interface UpdateItem {
  id: number;
  input: unknown;
}

/** PUT replaces the writable fields (missing required ones are errors), PATCH changes those given. */
export interface UpdateOptions extends ExistingObjectsWrite {
  mode: 'put' | 'patch';
}

/**
 * PUT/PATCH of one object, or of several from the list view. An unknown id is a
 * 404 for a single object and a failed element of a bulk request. Any object not at
 * a version its precondition accepts refuses the whole request before anything is decided.
 */
export async function updateObjects(
  given: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  items: UpdateItem[],
  { mode, bulk, preconditions = [] }: UpdateOptions,
): Promise<WriteOutcome> {
  await checkPreconditions(tx.view, definition, preconditions, { bulk });
  const inputs = items.map((item) => item.input);
  const env = await withRequestPatternChecks(given, tx.view, definition, inputs);
  return recordEach(env, tx, definition, items, { bulk }, async ({ id, input }) => {
    const current = await tx.view.get(definition.key, id);
    if (!current) {
      if (!bulk) throw new NotFoundError();
      throw new ValidationError({ id: [`Object with id ${id} does not exist.`] });
    }
    const previous = storedForm(current);
    const decided = await decideObject(env, {
      view: tx.view,
      definition,
      input,
      previous,
      mode,
      id,
      now: tx.time,
      requester: tx.user,
    });
    return { id, previous, decided };
  });
}

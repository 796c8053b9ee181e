import type { ModelDefinition } from '../models/modelDefinition.js';
import { withRequestPatternChecks } from './customFieldData.js';
import { type CommandEnvironment, type DecidedObject, decideObject } from './decideObject.js';
import { recordEach, type WriteOutcome } from './recordEach.js';
import type { WriteTransaction } from './WriteCoordinator.js';
import type { WriteShape } from './writeShape.js';

/**
 * POST: create one object or, from an array, several in one atomic request. Later
 * items see earlier ones, so duplicates within one request are caught too.
 */
export async function createObjects(
  given: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  items: unknown[],
  { bulk }: WriteShape,
): Promise<WriteOutcome> {
  const env = await withRequestPatternChecks(given, tx.view, definition, items);
  return recordEach(env, tx, definition, items, { bulk }, async (item) => {
    const id = tx.allocateId(definition.key);
    return { id, previous: null, decided: await decideCreation(env, tx, definition, item, id) };
  });
}

/** One new object decided under `id` from a client's (or an import's) input, at the transaction's time. */
export function decideCreation(
  env: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  input: unknown,
  id: number,
): Promise<DecidedObject> {
  return decideObject(env, {
    view: tx.view,
    definition,
    input,
    previous: null,
    mode: 'create',
    id,
    now: tx.time,
    requester: tx.user,
  });
}

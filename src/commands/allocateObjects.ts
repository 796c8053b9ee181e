import type { FieldErrors } from '../errors/fieldErrors.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors/requestErrors.js';
import type { DetailAction } from '../models/detailEndpoints.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import { createObjects } from './createObjects.js';
import { type CommandEnvironment, decideObject } from './decideObject.js';
import type { WriteOutcome } from './recordEach.js';
import type { WriteTransaction } from './WriteCoordinator.js';
import type { WriteShape } from './writeShape.js';

/**
 * POST to an allocation sub-resource (a prefix's available-ips, ...): hand out free space
 * of the parent object and create the objects that take it, in one decision of the
 * single writer. Free space is read from the writer's view (committed plus staged
 * writes), so concurrent requests, and the items of one request, never receive the
 * same address, prefix or VID. The objects are created as by an ordinary POST (same
 * checks, events and idempotency); nothing is written unless all of them are.
 */
export async function allocateObjects(
  env: CommandEnvironment,
  tx: WriteTransaction,
  parentModel: string,
  parentId: number,
  action: DetailAction,
  requests: unknown[],
  shape: WriteShape,
): Promise<WriteOutcome> {
  // The parent may have gone since the request looked it up.
  const parent = await tx.view.get(parentModel, parentId);
  if (!parent) throw new NotFoundError();
  const created = env.registry.get(action.creates);
  const allocation = await action.allocator.allocate(parent, requests, {
    view: tx.view,
    checkFields: (inputs) => checkFields(env, tx, created, inputs),
  });
  if ('conflict' in allocation) throw new ConflictError(allocation.conflict);
  if ('invalid' in allocation) throw new ValidationError(allocation.invalid as FieldErrors[]);
  return createObjects(env, tx, created, allocation.inputs, shape);
}

const withoutRules = new WeakMap<ModelDefinition, ModelDefinition>();

/** The definition with its field rules only: no model rules (`validate`), no uniqueness. */
function fieldRulesOf(definition: ModelDefinition): ModelDefinition {
  let derived = withoutRules.get(definition);
  if (!derived) {
    derived = { ...definition, unique: [], hooks: { ...definition.hooks, validate: undefined } };
    withoutRules.set(definition, derived);
  }
  return derived;
}

async function checkFields(
  env: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  inputs: unknown[],
): Promise<FieldErrors[]> {
  const rules = fieldRulesOf(definition);
  const results: FieldErrors[] = [];
  for (const input of inputs) {
    try {
      await decideObject(env, {
        view: tx.view,
        definition: rules,
        input,
        previous: null,
        mode: 'create',
        id: 0,
        now: tx.time,
      });
      results.push({});
    } catch (error) {
      if (!(error instanceof ValidationError) || Array.isArray(error.body)) throw error;
      results.push(error.body);
    }
  }
  return results;
}

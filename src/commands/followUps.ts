import type { FieldErrors } from '../errors/fieldErrors.js';
import { NotFoundError, ValidationError } from '../errors/requestErrors.js';
import type { DecidedChange, FollowUpCommand } from '../models/compositeWrites.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { CommandEnvironment, FollowUpRunner } from './CommandEnvironment.js';
import { createObjects } from './createObjects.js';
import { deleteObjects } from './deleteObjects.js';
import { storedForm } from './storedForm.js';
import { updateObjects } from './updateObjects.js';
import type { WriteTransaction } from './WriteCoordinator.js';

/**
 * Runs the further changes a model's `followUps` hook declares for an object just
 * recorded, in the same transaction: each is decided like a client's request and
 * recorded as ordinary events of the same request (and may have follow-ups of its own).
 * A refused follow-up refuses the request that caused it, named as such.
 */
export function runFollowUps(
  env: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  change: DecidedChange,
): Promise<void> {
  return runFollowUpsOf(env, tx, definition, change, () => true);
}

/**
 * Creates an object a follow-up derives during an import (a cable's termination) as the
 * import's source has it: under its id and with its times, where the source shows it.
 */
export type DerivedCreate = (
  env: CommandEnvironment,
  tx: WriteTransaction,
  target: ModelDefinition,
  input: Record<string, unknown>,
) => Promise<void>;

/**
 * The follow-ups of an import: it brings every object clients can write itself, with its
 * own id, so follow-ups do not create those again (components instantiated from
 * templates). Objects of read-only models (a cable's terminations) are derived, not
 * imported: they are created by `createDerived` (as usual without it), and updates (cable
 * ends, paths) run as usual.
 */
export function importFollowUps(createDerived?: DerivedCreate): FollowUpRunner {
  return (env, tx, definition, change) =>
    runFollowUpsOf(
      env,
      tx,
      definition,
      change,
      (command) => command.kind !== 'create' || env.registry.get(command.model).readOnly === true,
      createDerived,
    );
}

async function runFollowUpsOf(
  env: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  change: DecidedChange,
  wanted: (command: FollowUpCommand) => boolean,
  createDerived?: DerivedCreate,
): Promise<void> {
  const hook = definition.hooks?.followUps;
  if (!hook) return;
  for (const command of (await hook(change, tx.view, env.registry)).filter(wanted)) {
    const target = env.registry.get(command.model);
    try {
      await runCommand(env, tx, target, command, createDerived);
    } catch (error) {
      if (error instanceof ValidationError)
        throw new ValidationError({ non_field_errors: describeRefusal(target, error.body) });
      if (error instanceof NotFoundError)
        throw new ValidationError({ non_field_errors: [`${target.verboseName} ${idOf(command)}: not found.`] });
      throw error;
    }
  }
}

async function runCommand(
  env: CommandEnvironment,
  tx: WriteTransaction,
  target: ModelDefinition,
  command: FollowUpCommand,
  createDerived?: DerivedCreate,
): Promise<void> {
  switch (command.kind) {
    case 'create':
      if (createDerived) await createDerived(env, tx, target, command.input);
      else await createObjects(env, tx, target, [command.input], { bulk: false });
      return;
    case 'update':
      await updateObjects(env, tx, target, [{ id: command.id, input: command.input }], { mode: 'patch', bulk: false });
      return;
    case 'delete':
      await deleteObjects(env, tx, target, [command.id], { bulk: false });
      return;
    case 'set':
      await setValues(tx, target, command.id, command.values);
  }
}

async function setValues(
  tx: WriteTransaction,
  target: ModelDefinition,
  id: number,
  values: Record<string, unknown>,
): Promise<void> {
  const current = await tx.view.get(target.key, id);
  if (!current) throw new NotFoundError();
  const previous = storedForm(current);
  const obj = { ...previous, ...structuredClone(values) };
  tx.record({
    action: 'update',
    objectType: target.key,
    objectId: id,
    objectRepr: String(current.display ?? id),
    prechange: previous,
    postchange: obj,
    related: target.hooks?.relatedObject?.(obj) ?? null,
  });
}

function idOf(command: FollowUpCommand): string {
  return 'id' in command ? String(command.id) : '(new)';
}

/** A follow-up's field errors as messages about the object it would have written. */
function describeRefusal(target: ModelDefinition, body: FieldErrors | FieldErrors[]): string[] {
  const entries = (Array.isArray(body) ? body : [body]).flatMap((errors) => Object.entries(errors));
  return entries.map(([field, messages]) => `${target.verboseName}: ${field}: ${flatten(messages).join(' ')}`);
}

function flatten(messages: unknown): string[] {
  if (typeof messages === 'string') return [messages];
  if (Array.isArray(messages)) return messages.flatMap(flatten);
  if (messages && typeof messages === 'object') return Object.values(messages).flatMap(flatten);
  return [];
}

import { ValidationError } from '../errors/requestErrors.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { StoredObject } from '../models/storedObject.js';
import { createObjects, decideCreation } from './createObjects.js';
import { type CommandEnvironment, decideObject, displayOf } from './decideObject.js';
import { type DerivedCreate, importFollowUps } from './followUps.js';
import { recordEach, type WriteOutcome } from './recordEach.js';
import { storedForm } from './storedForm.js';
import type { WriteTransaction } from './WriteCoordinator.js';

/** One object brought from another registry (a NetBox, another netledger). */
export interface ImportedObject {
  /** Its id there, kept here: clients' bookmarks and `*_id` filters go on working. */
  id: number;
  /** Its writable fields as the source has them, relations by id. */
  input: Record<string, unknown>;
  /** The source's times, kept instead of the import's own (absent: the import's). */
  created?: string | null;
  lastUpdated?: string | null;
}

/**
 * The source's objects of read-only models, which the import derives again rather than
 * writes (a cable's terminations, from its cable): the derived object keeps the source's
 * id and times, so its id stays what clients saw.
 */
export interface DerivedObjects {
  /** The source's object a follow-up is creating again, matched by what the follow-up writes. */
  find(model: string, input: Record<string, unknown>): Omit<ImportedObject, 'input'> | undefined;
}

/** An imported object refused by the rules: which object, and why, in NetBox's shape. */
export class ImportRefusedError extends Error {
  constructor(
    readonly model: string,
    readonly id: number,
    readonly body: unknown,
  ) {
    super(`${model} ${id} refused: ${JSON.stringify(body)}`);
  }
}

/**
 * Creates imported objects under their own ids, decided like a client's POST (the same
 * checks) with the source's times. The objects that follow-ups would create are not
 * created: the import brings them itself (see importFollowUps), except derived ones. An id already taken
 * refuses the import: it writes into an empty registry only.
 */
export function importObjects(
  env: CommandEnvironment,
  tx: WriteTransaction,
  model: ModelDefinition,
  items: ImportedObject[],
  options: {
    /** Objects the same import's history left behind are replaced by their current state, not refused. */
    overHistory?: boolean;
    derived?: DerivedObjects;
  } = {},
): Promise<WriteOutcome> {
  const importEnv = importEnvironment(env, options.derived);
  const definition = withoutRequiredPasswords(model);
  return recordEach(importEnv, tx, definition, items, { bulk: false }, (item) =>
    refusalNamed(definition, item.id, async () => {
      if (!options.overHistory && (await tx.view.get(definition.key, item.id))) {
        throw new ValidationError({ id: [`${definition.verboseName} ${item.id} exists already.`] });
      }
      return createUnder(importEnv, tx, definition, item.input, item);
    }),
  );
}

/** One object created under the source's id, decided like a POST, then given the source's times. */
async function createUnder(
  env: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  input: unknown,
  source: Omit<ImportedObject, 'input'>,
) {
  const id = tx.claimId(definition.key, source.id);
  const decided = await decideCreation(env, tx, definition, input, id);
  stamp(decided.obj, source);
  decided.repr = await displayOf(definition, decided.obj, tx.view);
  return { id, previous: null, decided };
}

/**
 * Sets the fields an import held back on creation (references that close a cycle: a
 * device's primary IP, which is created after the device), decided like a PATCH.
 */
export function completeImportedObjects(
  env: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  items: ImportedObject[],
  derived?: DerivedObjects,
): Promise<WriteOutcome> {
  const importEnv = importEnvironment(env, derived);
  return recordEach(importEnv, tx, definition, items, { bulk: false }, (item) =>
    refusalNamed(definition, item.id, async () => {
      const current = await tx.view.get(definition.key, item.id);
      if (!current) throw new ValidationError({ id: [`${definition.verboseName} ${item.id} was not imported.`] });
      const previous = storedForm(current);
      const decided = await decideObject(importEnv, {
        view: tx.view,
        definition,
        input: item.input,
        previous,
        mode: 'patch',
        id: item.id,
        now: tx.time,
        requester: tx.user,
      });
      stamp(decided.obj, item);
      decided.repr = await displayOf(definition, decided.obj, tx.view);
      return { id: item.id, previous, decided };
    }),
  );
}

/**
 * Gives imported objects back the source's times where a later step of the import
 * (a follow-up of another object, a completion) stamped its own; changes nothing else.
 * Returns how many objects it changed.
 */
export async function restampImportedObjects(
  tx: WriteTransaction,
  definition: ModelDefinition,
  items: ImportedObject[],
): Promise<number> {
  let changed = 0;
  for (const item of items) {
    const current = await tx.view.get(definition.key, item.id);
    if (!current) continue;
    const previous = storedForm(current);
    const obj = { ...previous };
    stamp(obj, item);
    if (obj.created === previous.created && obj.last_updated === previous.last_updated) continue;
    tx.record({
      action: 'update',
      objectType: definition.key,
      objectId: item.id,
      // A display made of the times (a journal entry's) follows them.
      objectRepr: await displayOf(definition, obj, tx.view),
      prechange: previous,
      postchange: obj,
      related: definition.hooks?.relatedObject?.(obj) ?? null,
    });
    changed++;
  }
  return changed;
}

/** The environment of an import's writes: its follow-ups create no writable objects, derived ones as the source has them. */
function importEnvironment(env: CommandEnvironment, derived?: DerivedObjects): CommandEnvironment {
  return { ...env, followUps: importFollowUps(derived && derivedCreator(derived)) };
}

/** Creates a derived object under the source's id and times where the source shows it, else as any follow-up. */
function derivedCreator(derived: DerivedObjects): DerivedCreate {
  return async (env, tx, definition, input) => {
    const source = derived.find(definition.key, input);
    if (!source || (await tx.view.get(definition.key, source.id))) {
      await createObjects(env, tx, definition, [input], { bulk: false });
      return;
    }
    await recordEach(env, tx, definition, [input], { bulk: false }, (item) =>
      createUnder(env, tx, definition, item, source),
    );
  };
}

const importDefinitions = new WeakMap<ModelDefinition, ModelDefinition>();

/**
 * The definition with passwords optional: no API shows one, so an imported user has no
 * usable password (as Django's set_unusable_password) until the operator sets one.
 */
function withoutRequiredPasswords(definition: ModelDefinition): ModelDefinition {
  if (!definition.fields.some((f) => f.secret === 'password' && f.required)) return definition;
  let derived = importDefinitions.get(definition);
  if (!derived) {
    derived = {
      ...definition,
      fields: definition.fields.map((f) => (f.secret === 'password' ? { ...f, required: false } : f)),
    };
    importDefinitions.set(definition, derived);
  }
  return derived;
}

function stamp(obj: StoredObject, item: Omit<ImportedObject, 'input'>): void {
  if (item.created) obj.created = item.created;
  if (item.lastUpdated) obj.last_updated = item.lastUpdated;
}

async function refusalNamed<T>(definition: ModelDefinition, id: number, decide: () => Promise<T>): Promise<T> {
  try {
    return await decide();
  } catch (error) {
    if (error instanceof ValidationError) throw new ImportRefusedError(definition.key, id, error.body);
    throw error;
  }
}

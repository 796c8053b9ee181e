import type { ModelRegistry } from '../models/registry.js';
import type { FieldDefinition, ModelDefinition, StoredObject } from '../models/types.js';
import type { CommandEnvironment } from './decideObject.js';
import { ConflictError, NotFoundError, ValidationError } from './errors.js';
import { checkPreconditions, type Precondition } from './preconditions.js';
import { storedForm } from './storedForm.js';
import type { WriteTransaction } from './WriteCoordinator.js';

interface Doomed {
  definition: ModelDefinition;
  obj: StoredObject;
  display: string;
}

interface Reference {
  model: ModelDefinition;
  field: FieldDefinition;
}

/** Every field of every model that can point at `key`: foreign keys, many-to-many, tags, generic relations. */
function referencesTo(registry: ModelRegistry, key: string): Reference[] {
  const references: Reference[] = [];
  for (const model of registry.all()) {
    for (const field of model.fields) {
      if ((field.type === 'fk' || field.type === 'm2m' || field.type === 'tags') && field.target === key) references.push({ model, field });
      if (field.type === 'generic_fk' && field.targets?.includes(key) && field.typeField && field.idField) references.push({ model, field });
    }
  }
  return references;
}

/**
 * DELETE of one object or several. Protecting relations refuse the whole request
 * (409, naming the dependants); cascading ones delete their dependants, each with
 * its own event; SET_NULL and many-to-many references are cleared by update events,
 * so replaying the log rebuilds exactly the same read models. Preconditions name
 * versions of the objects asked for, not of what cascades from them.
 */
export async function deleteObjects(
  env: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  ids: number[],
  bulk: boolean,
  preconditions: readonly Precondition[] = [],
): Promise<void> {
  await checkPreconditions(tx.view, definition, preconditions, bulk);
  const doomed = new Map<string, Doomed>();
  const order: Doomed[] = [];
  const missing: Array<Record<string, string[]>> = [];
  let anyMissing = false;
  for (const id of ids) {
    const doc = await tx.view.get(definition.key, id);
    if (!doc) {
      if (!bulk) throw new NotFoundError();
      anyMissing = true;
      missing.push({ id: [`Object with id ${id} does not exist.`] });
      continue;
    }
    missing.push({});
    const entry = { definition, obj: storedForm(doc), display: String(doc.display ?? id) };
    if (!doomed.has(`${definition.key}:${id}`)) {
      doomed.set(`${definition.key}:${id}`, entry);
      order.push(entry);
    }
  }
  if (anyMissing) throw new ValidationError(missing);

  const blockers = new Map<string, Doomed>();
  const cleared = new Map<string, { definition: ModelDefinition; obj: StoredObject; display: string }>();
  for (let i = 0; i < order.length; i++) {
    const parent = order[i];
    for (const { model, field } of referencesTo(env.registry, parent.definition.key)) {
      const query =
        field.type === 'generic_fk'
          ? { [field.typeField!]: parent.definition.key, [field.idField!]: parent.obj.id }
          : { [field.name]: parent.obj.id };
      for (const dependant of await tx.view.find(model.key, query)) {
        const key = `${model.key}:${dependant.id}`;
        if (doomed.has(key)) continue;
        const display = String(dependant.display ?? dependant.id);
        if (field.type === 'generic_fk' || (field.type === 'fk' && field.onDelete === 'CASCADE')) {
          const entry = { definition: model, obj: storedForm(dependant), display };
          doomed.set(key, entry);
          order.push(entry);
        } else if (field.type === 'fk' && field.onDelete === 'PROTECT') {
          blockers.set(key, { definition: model, obj: storedForm(dependant), display });
        } else {
          const entry = cleared.get(key) ?? { definition: model, obj: storedForm(dependant), display };
          const value = entry.obj[field.name];
          entry.obj = {
            ...entry.obj,
            [field.name]: Array.isArray(value) ? value.filter((v) => v !== parent.obj.id) : null,
          };
          cleared.set(key, entry);
        }
      }
    }
  }

  const remaining = [...blockers.entries()].filter(([key]) => !doomed.has(key)).map(([, b]) => b);
  if (remaining.length > 0) {
    const names = remaining.map((b) => `${b.display} (${b.obj.id})`).join(', ');
    throw new ConflictError(`Unable to delete object. ${remaining.length} dependent objects were found: ${names}`);
  }

  for (const [key, entry] of cleared) {
    if (doomed.has(key)) continue;
    const previous = storedForm((await tx.view.get(entry.definition.key, entry.obj.id))!);
    tx.record({
      action: 'update',
      objectType: entry.definition.key,
      objectId: entry.obj.id,
      objectRepr: entry.display,
      prechange: previous,
      postchange: { ...entry.obj, last_updated: tx.time },
      related: entry.definition.hooks?.relatedObject?.(entry.obj) ?? null,
    });
  }
  // Dependants go before what they depend on, as a database's cascade would remove them.
  for (const entry of [...order].reverse()) {
    tx.record({
      action: 'delete',
      objectType: entry.definition.key,
      objectId: entry.obj.id,
      objectRepr: entry.display,
      prechange: entry.obj,
      postchange: null,
      related: entry.definition.hooks?.relatedObject?.(entry.obj) ?? null,
    });
  }
}

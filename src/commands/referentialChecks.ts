import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelRegistry } from '../models/registry.js';
import type { StoredObject } from '../models/storedObject.js';
import type { WriteTransaction } from './WriteCoordinator.js';

/*
 * Checks of a state written back or replayed onto the registry as it is now (a revert, a
 * branch's merge), which the ordinary decisions make as they resolve input: references
 * must point at objects that exist, and an object deleted must not be referred to.
 */

/** Every related object a restored state names must still exist. */
export async function assertReferencesExist(
  registry: ModelRegistry,
  tx: WriteTransaction,
  definition: ModelDefinition,
  obj: StoredObject,
  label: string,
  refuse: (reason: string) => Error,
): Promise<void> {
  for (const field of definition.fields) {
    const targets: Array<[string, number]> = [];
    const value = obj[field.name];
    if (field.type === 'fk' && field.target && typeof value === 'number') targets.push([field.target, value]);
    if ((field.type === 'm2m' || field.type === 'tags') && field.target && Array.isArray(value)) {
      for (const id of value) if (typeof id === 'number') targets.push([field.target, id]);
    }
    if (field.type === 'generic_fk' && field.typeField && field.idField) {
      const type = obj[field.typeField];
      const id = obj[field.idField];
      if (typeof type === 'string' && typeof id === 'number') targets.push([type, id]);
    }
    for (const [type, id] of targets) {
      if (!registry.tryGet(type) || !(await tx.view.get(type, id))) {
        throw refuse(`${label} refers to ${type} ${id} (${field.name}), which no longer exists.`);
      }
    }
  }
}

/** An object the revert deletes must not be referred to by any other object now. */
export async function assertUnreferenced(
  registry: ModelRegistry,
  tx: WriteTransaction,
  definition: ModelDefinition,
  id: number,
  label: string,
  refuse: (reason: string) => Error,
  deleting: ReadonlySet<string>,
): Promise<void> {
  for (const { model, field } of registry.referencesTo(definition.key)) {
    const query =
      field.type === 'generic_fk' ? { [field.typeField!]: definition.key, [field.idField!]: id } : { [field.name]: id };
    // One more than the objects being deleted: a dependant that stays is among them if there is one.
    const dependant = (await tx.view.find(model.key, query, deleting.size + 1)).find(
      (d) => !deleting.has(`${model.key}:${d.id}`),
    );
    if (dependant) {
      throw refuse(
        `${label} is referred to by ${model.key} ${dependant.id} (${String(dependant.display ?? dependant.id)}) through ${field.name}; deleting it would leave that reference dangling.`,
      );
    }
  }
}

/**
 * A user's preferences (NetBox's UserConfig): a JSON object kept with the user, changed
 * only by its owner. A change is an update event of the user that changes nothing else.
 */
import { NotFoundError, ValidationError } from '../errors/requestErrors.js';
import { deepMerge, isJsonObject, type JsonObject } from '../models/configContexts/deepMerge.js';
import type { StoredObject } from '../models/storedObject.js';
import { storedForm } from './storedForm.js';
import type { WriteTransaction } from './WriteCoordinator.js';

const USER = 'auth.user';

/** The preferences a stored user holds ({} before any were saved). */
export function userConfigOf(user: StoredObject | Record<string, unknown>): JsonObject {
  return isJsonObject(user.config) ? user.config : {};
}

/**
 * The preferences after a PATCH: the body merged into them as NetBox merges (objects key
 * by key; anything else, an empty object included, replaces; keys are never removed).
 * A body that is not a JSON object is refused.
 */
export function mergedUserConfig(current: JsonObject, patch: unknown): JsonObject {
  if (patch === undefined) return current;
  if (!isJsonObject(patch)) {
    const kind = Array.isArray(patch)
      ? 'list'
      : patch === null
        ? 'null'
        : typeof patch === 'string'
          ? 'str'
          : typeof patch === 'boolean'
            ? 'bool'
            : typeof patch === 'number'
              ? Number.isInteger(patch)
                ? 'int'
                : 'float'
              : typeof patch;
    throw new ValidationError({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${kind}.`] });
  }
  return deepMerge(current, patch);
}

/** Merges `patch` into the preferences of user `userId`; records an event only when they change. */
export async function updateUserConfig(tx: WriteTransaction, userId: number, patch: unknown): Promise<JsonObject> {
  const current = await tx.view.get(USER, userId);
  if (!current) throw new NotFoundError();
  const before = userConfigOf(current);
  const after = mergedUserConfig(before, patch);
  if (JSON.stringify(after) === JSON.stringify(before)) return before;
  const previous = storedForm(current);
  tx.record({
    action: 'update',
    objectType: USER,
    objectId: userId,
    objectRepr: typeof current.display === 'string' ? current.display : String(current.username),
    prechange: previous,
    postchange: { ...previous, config: after },
  });
  return after;
}

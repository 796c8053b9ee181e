import type { FieldErrors } from '../errors/fieldErrors.js';
import { addError } from '../errors/requestErrors.js';
import type { LookupView } from '../models/lookupView.js';
import type { ModelDefinition, UniqueConstraint } from '../models/modelDefinition.js';
import type { StoredObject } from '../models/storedObject.js';
import { regexCondition } from '../projections/textPatterns.js';

/** Django's verbose name of a field: the one NetBox declares (`verboseName`, else `label`), else its name with '_' → ' '. */
function fieldLabel(definition: ModelDefinition, name: string): string {
  const field = definition.fields.find((f) => f.name === name);
  return field?.verboseName ?? field?.label ?? name.replace(/_/g, ' ');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Where a unique value lives in the stored object (a token key only as its digest). */
function storedName(definition: ModelDefinition, name: string): string {
  return definition.fields.find((f) => f.name === name)?.secret === 'token_key' ? 'key_digest' : name;
}

/**
 * Unique and unique-together rules, with SQL's NULL semantics (a null in any of the
 * columns never collides) and NetBox's messages. A rule whose columns an update left as
 * they were is not looked up again (`previous`): any other object taking those values in
 * the same request is checked on its own, against the staged view. A bulk PATCH of a
 * status spent about a quarter of its time in those lookups.
 */
export async function checkUniqueness(
  view: LookupView,
  definition: ModelDefinition,
  obj: StoredObject,
  previous: StoredObject | null = null,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  for (const constraint of definition.unique ?? []) {
    if (constraint.whenNull && obj[constraint.whenNull] !== null && obj[constraint.whenNull] !== undefined) continue;
    if (previous && columnsUnchanged(definition, constraint, obj, previous)) continue;
    const query: Record<string, unknown> = { id: { $ne: obj.id } };
    let applies = true;
    for (const name of constraint.fields) {
      const key = storedName(definition, name);
      const value = obj[key];
      if (value === null || value === undefined) {
        applies = false;
        break;
      }
      query[key] =
        constraint.caseInsensitive?.includes(name) && typeof value === 'string'
          ? regexCondition('ie', [value])
          : { $eq: value };
    }
    if (constraint.whenNull) query[constraint.whenNull] = null;
    if (!applies) continue;
    if ((await view.find(definition.key, query, 1)).length === 0) continue;
    const { field, message } = uniquenessError(definition, constraint);
    addError(errors, field, message);
  }
  return errors;
}

/** Whether every column of a rule (its fields and its null condition) holds the same value as before. */
function columnsUnchanged(
  definition: ModelDefinition,
  constraint: UniqueConstraint,
  obj: StoredObject,
  previous: StoredObject,
): boolean {
  if (constraint.whenNull && obj[constraint.whenNull] !== previous[constraint.whenNull]) return false;
  return constraint.fields.every((name) => {
    const key = storedName(definition, name);
    return obj[key] === previous[key];
  });
}

/**
 * Where and how NetBox reports a broken uniqueness rule: one field under its name, with DRF's
 * UniqueValidator words (model and field verbose names as declared); several fields, or a rule
 * with a message of its own, under '__all__', with Django's (each verbose name capitalised).
 */
export function uniquenessError(
  definition: ModelDefinition,
  constraint: UniqueConstraint,
): { field: string; message: string } {
  if (constraint.fields.length === 1 && !constraint.message) {
    const name = constraint.fields[0]!;
    return {
      field: name,
      message: `${definition.verboseName} with this ${fieldLabel(definition, name)} already exists.`,
    };
  }
  const labels = constraint.fields.map((f) => capitalize(fieldLabel(definition, f)));
  const joined = labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}` : labels[0];
  return {
    field: '__all__',
    message: constraint.message ?? `${capitalize(definition.verboseName)} with this ${joined} already exists.`,
  };
}

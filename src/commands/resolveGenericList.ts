import { addError } from '../errors/requestErrors.js';
import type { FieldDefinition, GenericListItem } from '../models/fieldDefinition.js';
import type { RelationContext } from './CommandEnvironment.js';
import { pythonTypeName } from './writeSchema.js';

type ItemErrors = Record<string, string[]>;

/**
 * A generic_list field: every item `{object_type, object_id}` must name an existing
 * object of one of the field's target models, each object once. Errors are reported
 * per item, `{}` for the good ones; the stored form keeps the pairs in the order given.
 */
export async function resolveGenericList(
  field: FieldDefinition,
  value: unknown,
  context: RelationContext,
): Promise<void> {
  const { resolved, errors } = context;
  if (!Array.isArray(value)) {
    addError(
      errors,
      field.name,
      value === null
        ? 'This field may not be null.'
        : `Expected a list of items but got type "${pythonTypeName(value)}".`,
    );
    return;
  }
  const items: GenericListItem[] = [];
  const itemErrors: ItemErrors[] = [];
  const seen = new Set<string>();
  for (const item of value) {
    const outcome = await resolveItem(field, item, context);
    if ('errors' in outcome) {
      itemErrors.push(outcome.errors);
      continue;
    }
    const key = `${outcome.item.object_type}:${outcome.item.object_id}`;
    if (seen.has(key)) {
      itemErrors.push({ object_id: ['This object is listed more than once.'] });
      continue;
    }
    seen.add(key);
    items.push(outcome.item);
    itemErrors.push({});
  }
  if (itemErrors.some((e) => Object.keys(e).length > 0)) (errors as Record<string, unknown>)[field.name] = itemErrors;
  else resolved[field.name] = items;
}

async function resolveItem(
  field: FieldDefinition,
  item: unknown,
  { env, view }: RelationContext,
): Promise<{ item: GenericListItem } | { errors: ItemErrors }> {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    return { errors: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(item)}.`] } };
  }
  const { object_type: type, object_id: id } = item as Record<string, unknown>;
  const errors: ItemErrors = {};
  if (type === undefined || type === null) errors.object_type = ['This field is required.'];
  else if (typeof type !== 'string' || !env.registry.tryGet(type) || !(field.targets ?? []).includes(type)) {
    errors.object_type = [`Invalid content type: ${String(type)}`];
  }
  const numeric = typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id)) ? Number(id) : NaN;
  if (id === undefined || id === null) errors.object_id = ['This field is required.'];
  else if (!Number.isSafeInteger(numeric)) errors.object_id = ['A valid integer is required.'];
  if (Object.keys(errors).length > 0) return { errors };
  if (!(await view.get(type as string, numeric))) {
    return { errors: { object_id: [`Related object not found using the provided numeric ID: ${numeric}`] } };
  }
  return { item: { object_type: type as string, object_id: numeric } };
}

import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';

/** The custom fields defined for a model, in NetBox's order (group, weight, name). */
export async function customFieldsOf(view: LookupView, model: string): Promise<StoredObject[]> {
  const fields = await view.find('extras.customfield', { content_types: model });
  return fields.sort(
    (a, b) =>
      String(a.group_name).localeCompare(String(b.group_name)) ||
      Number(a.weight) - Number(b.weight) ||
      String(a.name).localeCompare(String(b.name)),
  );
}

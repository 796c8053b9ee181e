import type { FieldDefinition } from '../fieldDefinition.js';
import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';

/**
 * A tag's `tagged_items`: how many objects, of every model with tags, carry it. Counted
 * from the read models on every read, so tagging, untagging and deleting objects show at
 * once; a page of tags costs one count per tagged model (an index lookup per tag in
 * memory, one aggregation in MongoDB), whatever the number of objects tagged.
 */
export const taggedItemsField: FieldDefinition = {
  name: 'tagged_items',
  type: 'computed',
  readOnly: true,
  computeMany: async (tags, view, _model, _memo, models) => {
    const ids = tags.map((tag) => tag.id);
    const totals = new Map<number, number>(ids.map((id) => [id, 0]));
    if (ids.length === 0) return [];
    const tagged = models
      .all()
      .filter((definition) =>
        definition.fields.some((field) => field.type === 'tags' && (field.target ?? 'extras.tag') === 'extras.tag'),
      );
    const counts = await Promise.all(
      tagged.map((definition) => countsOf(view, definition.key, fieldOf(definition.fields), ids)),
    );
    for (const perTag of counts) for (const [id, n] of perTag) totals.set(id, (totals.get(id) ?? 0) + n);
    return tags.map((tag: StoredObject) => totals.get(tag.id) ?? 0);
  },
};

function fieldOf(fields: FieldDefinition[]): string {
  return fields.find((field) => field.type === 'tags')!.name;
}

/** Per tag id, the `model` objects whose tags hold it. */
async function countsOf(view: LookupView, model: string, field: string, ids: number[]): Promise<Map<number, number>> {
  if (view.countBy) return view.countBy(model, field, ids);
  const counts = new Map<number, number>();
  for (const id of ids) {
    const query = { [field]: id };
    counts.set(id, view.count ? await view.count(model, query) : (await view.find(model, query)).length);
  }
  return counts;
}

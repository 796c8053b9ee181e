// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { descriptionField, identityFields, uniqueNameField } from '../commonFields.js';
import type { FilterEnvironment } from '../filterTypes.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { taggedItemsField } from './taggedItems.js';

export const tag: ModelDefinition = {
  key: 'extras.tag',
  app: 'extras',
  model: 'tag',
  path: 'tags',
  verboseName: 'tag',
  verboseNamePlural: 'tags',
  fields: [
    ...identityFields,
    uniqueNameField(),
    {
      name: 'slug',
      type: 'string',
      required: true,
      unique: true,
      maxLength: 100,
      pattern: '^[-\\p{L}\\p{M}\\p{N}_]+$',
    },
    { name: 'color', type: 'string', default: '9e9e9e', maxLength: 6, pattern: '^[0-9a-f]{6}$', format: 'color' },
    descriptionField,
    taggedItemsField,
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'color'],
  ordering: ['name', 'id'],
  search: ['name', 'slug', 'description'],
  filters: {
    content_type: { kind: 'method', method: filterContentType },
    content_type_id: { kind: 'method', value: 'integer', method: filterContentTypeId },
  },
};

/* ------------------------------------------------------------ list filters */

/** Tags applied to at least one object of one of the '<app>.<model>' types (malformed values skipped). */
async function filterContentType(
  values: Array<string | number | boolean>,
  env: FilterEnvironment,
): Promise<Record<string, unknown> | null> {
  const types = values.map(String).filter((v) => v.split('.').length === 2);
  if (types.length === 0) return null;
  const used = new Set<number>();
  for (const type of types) {
    let objects: Array<Record<string, unknown>> = [];
    try {
      objects = await env.find(type, { 'tags.0': { $exists: true } });
    } catch {
      objects = [];
    }
    for (const o of objects) for (const id of (o.tags as number[] | undefined) ?? []) used.add(id);
  }
  return { id: { $in: [...used] } };
}

/** The same, the types named by content type id (ids naming no model are skipped). */
async function filterContentTypeId(
  values: Array<string | number | boolean>,
  env: FilterEnvironment,
): Promise<Record<string, unknown> | null> {
  const types = values.map((id) => env.contentTypeKey(Number(id))).filter((key): key is string => key !== null);
  if (types.length === 0) return { id: { $in: [] } };
  return filterContentType(types, env);
}

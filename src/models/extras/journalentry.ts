// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { identityFields } from '../commonFields.js';
import { contentTypeDisplay } from '../contentTypeDisplay.js';
import { contentTypeIdFilter } from '../contentTypeIdFilter.js';
import type { FilterSpec } from '../filterTypes.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { JOURNAL_ENTRY_KIND_CHOICES } from './choices.js';
import { JOURNALED_MODELS } from './featureModels.js';

/**
 * A remark about one object of a journaled model, written by a user. Deleting the object
 * deletes its journal (a generic relation); deleting the author leaves the entry, unsigned.
 */
export const journalentry: ModelDefinition = {
  key: 'extras.journalentry',
  app: 'extras',
  model: 'journalentry',
  path: 'journal-entries',
  verboseName: 'journal entry',
  verboseNamePlural: 'journal entries',
  fields: [
    ...identityFields,
    // Any model is a valid content type here; one without a journal is refused by the model's rule.
    { name: 'assigned_object_type', type: 'content_type', required: true, acceptsAnyModel: true },
    { name: 'assigned_object_id', type: 'integer', required: true, min: 0, max: 9223372036854776000 },
    {
      name: 'assigned_object',
      type: 'generic_fk',
      readOnly: true,
      nullable: true,
      targets: JOURNALED_MODELS,
      typeField: 'assigned_object_type',
      idField: 'assigned_object_id',
      notFound: (type, id) => ({ non_field_errors: [`Invalid assigned_object: ${type} ID ${String(id)}`] }),
    },
    // A record's created reads as a date (YYYY-MM-DD); the stored value keeps the full timestamp.
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    // The author: the requesting user unless the client names another (or null); a PUT without it resets it.
    {
      name: 'created_by',
      type: 'fk',
      target: 'auth.user',
      onDelete: 'SET_NULL',
      representation: 'id',
      nullable: true,
      defaultIsRequester: true,
      defaultOnPut: true,
    },
    { name: 'kind', type: 'choice', default: 'info', choices: JOURNAL_ENTRY_KIND_CHOICES },
    { name: 'comments', type: 'string', required: true },
    { name: 'tags', type: 'tags', target: 'extras.tag', default: [] },
    { name: 'custom_fields', type: 'custom_fields' },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'created'],
  ordering: ['-created', 'id'],
  search: ['comments'],
  filters: {
    assigned_object_type_id: contentTypeIdFilter('assigned_object_type', { several: true }),
    created: false,
    created_after: createdBound('$gte'),
    created_before: createdBound('$lte'),
    created_by: { kind: 'related', target: 'auth.user', by: 'username', path: ['created_by'] },
  },
  hooks: {
    async validate(obj, _view, _previous, context) {
      const type = String(obj.assigned_object_type);
      if (JOURNALED_MODELS.includes(type)) return undefined;
      const shown = context ? contentTypeDisplay(type, context.models) : type;
      return { __all__: [`Journaling is not supported for this object type (${shown}).`] };
    },
    display: journalDisplay,
  },
};

/** Entries created at or after ($gte) / at or before ($lte) one date and time. */
function createdBound(operator: '$gte' | '$lte'): FilterSpec {
  return {
    kind: 'method',
    value: 'datetime',
    single: true,
    method: (values) => ({ created: { [operator]: values[values.length - 1] } }),
  };
}

/** '<created as YYYY-MM-DD HH:MM, UTC> (<kind label>)', e.g. '2023-06-15 14:30 (Info)'. */
export function journalDisplay(obj: StoredObject): string {
  const created = typeof obj.created === 'string' ? obj.created : '';
  const when = created.length >= 16 ? `${created.slice(0, 10)} ${created.slice(11, 16)}` : created;
  const kind = JOURNAL_ENTRY_KIND_CHOICES.find((c) => c.value === obj.kind)?.label ?? String(obj.kind);
  return `${when} (${kind})`;
}

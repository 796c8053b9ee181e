// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { descriptionField, identityFields, slugField, uniqueNameField } from '../commonFields.js';
import { contentTypeIdFilter } from '../contentTypeIdFilter.js';
import { changeTimesBeyondNetBox } from '../filterSpecs.js';
import type { FilterEnvironment } from '../filterTypes.js';
import type { ModelDefinition } from '../modelDefinition.js';

export const savedfilter: ModelDefinition = {
  key: 'extras.savedfilter',
  app: 'extras',
  model: 'savedfilter',
  path: 'saved-filters',
  verboseName: 'saved filter',
  verboseNamePlural: 'saved filters',
  fields: [
    ...identityFields,
    { name: 'content_types', type: 'array', items: 'content_type', required: true },
    uniqueNameField(),
    slugField,
    descriptionField,
    // The owner, as the client sends it (the API does not default it to the caller).
    {
      name: 'user',
      type: 'fk',
      target: 'auth.user',
      onDelete: 'SET_NULL',
      representation: 'id',
      nullable: true,
      default: null,
    },
    { name: 'weight', type: 'integer', default: 100, min: 0, max: 32767 },
    { name: 'enabled', type: 'boolean', default: true },
    { name: 'shared', type: 'boolean', default: true },
    { name: 'parameters', type: 'json', required: true },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name', 'slug'],
  ordering: ['weight', 'name', 'id'],
  search: ['name', 'description'],
  filters: {
    content_type_id: contentTypeIdFilter('content_types', { numeric: true }),
    user: { kind: 'related', target: 'auth.user', by: 'username', path: ['user'] },
    usable: { kind: 'method', value: 'boolean', single: true, method: usableBy },
    ...changeTimesBeyondNetBox,
  },
  hooks: {
    validate: async (obj) =>
      obj.parameters !== null && typeof obj.parameters === 'object' && !Array.isArray(obj.parameters)
        ? undefined
        : { parameters: ['Filter parameters must be stored as a dictionary of keyword arguments.'] },
  },
};

/**
 * The filters the caller may apply (true): enabled, and shared or the caller's own; or
 * those they may not (false). An anonymous caller owns none.
 */
function usableBy(values: Array<string | number | boolean>, env: FilterEnvironment): Record<string, unknown> {
  const mine = env.requesterId === null ? [] : [{ user: env.requesterId }];
  const usable = { enabled: true, $or: [{ shared: true }, ...mine] };
  if (values[values.length - 1] === true) return usable;
  return {
    $or: [
      { enabled: false },
      { shared: false, ...(env.requesterId === null ? {} : { user: { $ne: env.requesterId } }) },
    ],
  };
}

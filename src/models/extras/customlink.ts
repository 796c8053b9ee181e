// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { identityFields, uniqueNameField } from '../commonFields.js';
import { contentTypeIdFilter } from '../contentTypeIdFilter.js';
import { BEYOND_NETBOX, changeTimesBeyondNetBox } from '../filterSpecs.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { BUTTON_CLASS_CHOICES } from './choices.js';
import { CUSTOM_LINK_MODELS } from './featureModels.js';

export const customlink: ModelDefinition = {
  key: 'extras.customlink',
  app: 'extras',
  model: 'customlink',
  path: 'custom-links',
  verboseName: 'custom link',
  verboseNamePlural: 'custom links',
  fields: [
    ...identityFields,
    { name: 'content_types', type: 'array', items: 'content_type', allowedTypes: CUSTOM_LINK_MODELS, required: true },
    uniqueNameField(),
    { name: 'enabled', type: 'boolean', default: true },
    // Jinja2 templates, kept as written: netledger renders no pages, so nothing renders them.
    { name: 'link_text', type: 'string', required: true },
    { name: 'link_url', type: 'string', required: true },
    { name: 'weight', type: 'integer', default: 100, min: 0, max: 32767 },
    { name: 'group_name', type: 'string', blank: true, default: '', maxLength: 50 },
    {
      name: 'button_class',
      type: 'choice',
      default: 'outline-dark',
      choiceRender: 'plain',
      choices: BUTTON_CLASS_CHOICES,
    },
    { name: 'new_window', type: 'boolean', default: false },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name'],
  ordering: ['group_name', 'weight', 'name', 'id'],
  search: ['name', 'link_text', 'link_url', 'group_name'],
  filters: {
    content_type_id: contentTypeIdFilter('content_types', { numeric: true }),
    ...changeTimesBeyondNetBox,
    button_class: BEYOND_NETBOX,
    // long texts: one value counts, and they have no 'empty' lookup
    link_text: {
      kind: 'field',
      field: 'link_text',
      value: 'string',
      single: true,
      lookups: ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie'],
    },
    link_url: {
      kind: 'field',
      field: 'link_url',
      value: 'string',
      single: true,
      lookups: ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie'],
    },
  },
};

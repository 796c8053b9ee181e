// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { descriptionField, identityFields } from '../commonFields.js';
import { changeTimesBeyondNetBox } from '../filterSpecs.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { contentTypesFilters } from './contentTypesFilters.js';
import * as headerValues from './exportHeaderValues.js';

export const exporttemplate: ModelDefinition = {
  key: 'extras.exporttemplate',
  app: 'extras',
  model: 'exporttemplate',
  path: 'export-templates',
  verboseName: 'export template',
  verboseNamePlural: 'export templates',
  fields: [
    ...identityFields,
    { name: 'content_types', type: 'array', items: 'content_type', required: true },
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    descriptionField,
    { name: 'template_code', type: 'string', required: true },
    // Both end up in response headers: see exportHeaderValues.ts.
    {
      name: 'mime_type',
      type: 'string',
      blank: true,
      default: '',
      maxLength: 50,
      pattern: headerValues.MIME_TYPE_PATTERN,
      patternMessage: headerValues.MIME_TYPE_MESSAGE,
    },
    {
      name: 'file_extension',
      type: 'string',
      blank: true,
      default: '',
      maxLength: 15,
      pattern: headerValues.FILE_EXTENSION_PATTERN,
      patternMessage: headerValues.FILE_EXTENSION_MESSAGE,
    },
    { name: 'as_attachment', type: 'boolean', default: true },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name'],
  ordering: ['name', 'id'],
  search: ['name', 'description'],
  filters: { ...contentTypesFilters(), ...changeTimesBeyondNetBox },
  hooks: {
    validate: async (obj) => validateExportTemplate(obj),
  },
};

/** 'table' names the list's own table export in NetBox's UI, so no template may take it. */
function validateExportTemplate(obj: StoredObject): FieldErrors {
  const name = String(obj.name ?? '');
  return name.toLowerCase() === 'table'
    ? { name: [`"${name}" is a reserved name. Please choose a different name.`] }
    : {};
}

// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { descriptionField, identityFields } from '../commonFields.js';
import { contentTypeIdFilter } from '../contentTypeIdFilter.js';
import { customFieldValueProblem } from '../customFields/customFieldValues.js';
import { BEYOND_NETBOX, changeTimesBeyondNetBox, ONE_VALUE } from '../filterSpecs.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { type PatternChecker, sharedPatternChecker } from '../values/patternChecks.js';
import {
  CUSTOM_FIELD_FILTER_LOGIC_CHOICES,
  CUSTOM_FIELD_TYPE_CHOICES,
  CUSTOM_FIELD_VISIBILITY_CHOICES,
} from './choices.js';

export const customfield: ModelDefinition = {
  key: 'extras.customfield',
  app: 'extras',
  model: 'customfield',
  path: 'custom-fields',
  verboseName: 'custom field',
  verboseNamePlural: 'custom fields',
  fields: [
    ...identityFields,
    { name: 'content_types', type: 'array', items: 'content_type', required: true },
    { name: 'type', type: 'choice', required: true, choices: CUSTOM_FIELD_TYPE_CHOICES },
    { name: 'object_type', type: 'content_type' },
    { name: 'data_type', type: 'computed', readOnly: true },
    { name: 'name', type: 'string', required: true, unique: true, maxLength: 50, pattern: '^[A-Za-z0-9_]+$' },
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 50 },
    { name: 'group_name', type: 'string', blank: true, default: '', maxLength: 50 },
    descriptionField,
    { name: 'required', type: 'boolean', default: false },
    { name: 'search_weight', type: 'integer', default: 1000, min: 0, max: 32767 },
    {
      name: 'filter_logic',
      type: 'choice',
      default: 'loose',
      choices: CUSTOM_FIELD_FILTER_LOGIC_CHOICES,
    },
    {
      name: 'ui_visibility',
      type: 'choice',
      default: 'read-write',
      choices: CUSTOM_FIELD_VISIBILITY_CHOICES,
    },
    { name: 'default', type: 'json', nullable: true, default: null },
    { name: 'weight', type: 'integer', default: 100, min: 0, max: 32767 },
    { name: 'validation_minimum', type: 'integer', nullable: true, default: null, min: -2147483648, max: 2147483647 },
    { name: 'validation_maximum', type: 'integer', nullable: true, default: null, min: -2147483648, max: 2147483647 },
    { name: 'validation_regex', type: 'string', blank: true, default: '', maxLength: 500 },
    { name: 'choices', type: 'array', items: 'string', nullable: true, default: null },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name'],
  ordering: ['group_name', 'weight', 'name', 'id'],
  search: ['name', 'label', 'group_name', 'description'],
  filters: {
    // NetBox: ChoiceFilters (one value), not MultipleChoiceFilters
    filter_logic: ONE_VALUE,
    ui_visibility: ONE_VALUE,
    content_type_id: contentTypeIdFilter('content_types', { numeric: true }),
    ...changeTimesBeyondNetBox,
    validation_minimum: BEYOND_NETBOX,
    validation_maximum: BEYOND_NETBOX,
  },
  hooks: {
    display: (obj) => (obj.label ? String(obj.label) : capitalize(String(obj.name).replace(/_/g, ' '))),
    validate: async (obj, _view, previous, context) =>
      validateDefinition(obj, previous, context?.patterns ?? sharedPatternChecker()),
    compute: { data_type: (obj) => DATA_TYPES[String(obj.type)] ?? 'string' },
  },
};

/** Python's str.capitalize(): first character upper-cased, the rest lower-cased. */
function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}

const DATA_TYPES: Record<string, string> = {
  text: 'string',
  longtext: 'string',
  integer: 'integer',
  decimal: 'decimal',
  boolean: 'boolean',
  date: 'string',
  url: 'string',
  json: 'object',
  select: 'string',
  multiselect: 'array',
  object: 'object',
  multiobject: 'array',
};

const NUMERIC = new Set(['integer', 'decimal']);
const TEXTUAL = new Set(['text', 'longtext', 'url']);
const SELECTION = new Set(['select', 'multiselect']);
const OBJECTS = new Set(['object', 'multiobject']);

async function validateDefinition(
  obj: StoredObject,
  previous: StoredObject | null,
  patterns: PatternChecker,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const type = String(obj.type);
  const label = CUSTOM_FIELD_TYPE_CHOICES.find((c) => c.value === type)?.label ?? type;
  if (previous && previous.type !== obj.type) errors.type = ['Changing the type of custom fields is not supported.'];
  if (!NUMERIC.has(type) && obj.validation_minimum)
    errors.validation_minimum = ['A minimum value may be set only for numeric fields'];
  if (!NUMERIC.has(type) && obj.validation_maximum)
    errors.validation_maximum = ['A maximum value may be set only for numeric fields'];
  if (!TEXTUAL.has(type) && obj.validation_regex) {
    errors.validation_regex = ['Regular expression validation is supported only for text and URL fields'];
  } else if (obj.validation_regex) {
    const problem = await patterns.patternProblem(String(obj.validation_regex));
    if (problem) errors.validation_regex = [problem];
  }
  const choices = obj.choices as unknown[] | null;
  if (!SELECTION.has(type) && choices && choices.length)
    errors.choices = ['Choices may be set only for custom selection fields.'];
  if (SELECTION.has(type) && (!choices || choices.length === 0))
    errors.choices = ['Selection fields must specify at least one choice.'];
  if (choices?.some((c) => typeof c !== 'string' || c.length > 100))
    errors.choices = ['Each choice must be text of at most 100 characters.'];
  if (OBJECTS.has(type) && !obj.object_type) errors.object_type = ['Object fields must define an object type.'];
  if (!OBJECTS.has(type) && obj.object_type) errors.object_type = [`${label} fields may not define an object type.`];
  if (
    type === 'select' &&
    obj.default !== null &&
    obj.default !== undefined &&
    !choices?.includes(obj.default as string)
  ) {
    errors.default = [`The specified default value (${String(obj.default)}) is not listed as an available choice.`];
  } else if (obj.default !== null && obj.default !== undefined && !OBJECTS.has(type)) {
    // Against the pattern only if it may be stored (a refused one would match nothing).
    const field = errors.validation_regex ? { ...obj, validation_regex: '' } : obj;
    const problem = await customFieldValueProblem(
      field,
      TEXTUAL.has(type) && typeof obj.default !== 'string' ? String(obj.default) : obj.default,
      patterns,
    );
    if (problem) errors.default = [`Invalid default value "${String(obj.default)}": ${problem}`];
  }
  return errors;
}

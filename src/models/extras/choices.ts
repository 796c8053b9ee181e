/**
 * The choice tables of extras models (NetBox keeps them in extras/choices.py), one
 * declaration each: a model's file names the table, this file spells it.
 */
import type { Choice } from '../fieldDefinition.js';

/** The kinds of value a custom field holds (NetBox's CustomFieldTypeChoices). */
export const CUSTOM_FIELD_TYPE_CHOICES: Choice[] = [
  { value: 'text', label: 'Text' },
  { value: 'longtext', label: 'Text (long)' },
  { value: 'integer', label: 'Integer' },
  { value: 'decimal', label: 'Decimal' },
  { value: 'boolean', label: 'Boolean (true/false)' },
  { value: 'date', label: 'Date' },
  { value: 'url', label: 'URL' },
  { value: 'json', label: 'JSON' },
  { value: 'select', label: 'Selection' },
  { value: 'multiselect', label: 'Multiple selection' },
  { value: 'object', label: 'Object' },
  { value: 'multiobject', label: 'Multiple objects' },
];

/** How a custom field's list filter matches. */
export const CUSTOM_FIELD_FILTER_LOGIC_CHOICES: Choice[] = [
  { value: 'disabled', label: 'Disabled' },
  { value: 'loose', label: 'Loose' },
  { value: 'exact', label: 'Exact' },
];

/** Whether the UI shows and lets users edit a custom field. */
export const CUSTOM_FIELD_VISIBILITY_CHOICES: Choice[] = [
  { value: 'read-write', label: 'Read/Write' },
  { value: 'read-only', label: 'Read-only' },
  { value: 'hidden', label: 'Hidden' },
];

/** The colour of a custom link's button. */
export const BUTTON_CLASS_CHOICES: Choice[] = [
  { value: 'outline-dark', label: 'Default' },
  { value: 'blue', label: 'Blue' },
  { value: 'indigo', label: 'Indigo' },
  { value: 'purple', label: 'Purple' },
  { value: 'pink', label: 'Pink' },
  { value: 'red', label: 'Red' },
  { value: 'orange', label: 'Orange' },
  { value: 'yellow', label: 'Yellow' },
  { value: 'green', label: 'Green' },
  { value: 'teal', label: 'Teal' },
  { value: 'cyan', label: 'Cyan' },
  { value: 'gray', label: 'Gray' },
  { value: 'black', label: 'Black' },
  { value: 'white', label: 'White' },
  { value: 'ghost-dark', label: 'Link' },
];

/** The kind of a journal entry. */
export const JOURNAL_ENTRY_KIND_CHOICES: Choice[] = [
  { value: 'info', label: 'Info' },
  { value: 'success', label: 'Success' },
  { value: 'warning', label: 'Warning' },
  { value: 'danger', label: 'Danger' },
];

/** The state of a job. */
export const JOB_RESULT_STATUS_CHOICES: Choice[] = [
  { value: 'pending', label: 'Pending' },
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'running', label: 'Running' },
  { value: 'completed', label: 'Completed' },
  { value: 'errored', label: 'Errored' },
  { value: 'failed', label: 'Failed' },
];

/** The HTTP method a webhook sends with. */
export const WEBHOOK_HTTP_METHOD_CHOICES: Choice[] = [
  { value: 'GET', label: 'GET' },
  { value: 'POST', label: 'POST' },
  { value: 'PUT', label: 'PUT' },
  { value: 'PATCH', label: 'PATCH' },
  { value: 'DELETE', label: 'DELETE' },
];

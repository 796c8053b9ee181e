// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { identityFields, uniqueNameField } from '../commonFields.js';
import { changeTimesBeyondNetBox } from '../filterSpecs.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { ValidationContext } from '../modelHooks.js';
import type { StoredObject } from '../storedObject.js';
import { WEBHOOK_HTTP_METHOD_CHOICES } from './choices.js';
import { contentTypesFilters } from './contentTypesFilters.js';
import { InvalidConditions, parseRuleSet } from './webhookConditions.js';
import { webhookDeliveriesView } from './webhookDeliveriesView.js';
import { ownPayloadUrl } from './webhookOwnAddress.js';

export const webhook: ModelDefinition = {
  key: 'extras.webhook',
  app: 'extras',
  model: 'webhook',
  path: 'webhooks',
  verboseName: 'webhook',
  verboseNamePlural: 'webhooks',
  fields: [
    ...identityFields,
    { name: 'content_types', type: 'array', items: 'content_type', required: true },
    uniqueNameField(150),
    { name: 'type_create', type: 'boolean', default: false },
    { name: 'type_update', type: 'boolean', default: false },
    { name: 'type_delete', type: 'boolean', default: false },
    { name: 'payload_url', type: 'string', required: true, maxLength: 500 },
    { name: 'enabled', type: 'boolean', default: true },
    {
      name: 'http_method',
      type: 'choice',
      default: 'POST',
      choiceRender: 'plain',
      choices: WEBHOOK_HTTP_METHOD_CHOICES,
    },
    { name: 'http_content_type', type: 'string', default: 'application/json', maxLength: 100 },
    { name: 'additional_headers', type: 'string', blank: true, default: '' },
    { name: 'body_template', type: 'string', blank: true, default: '' },
    // The signing key: events keep it sealed (encrypted with SECRET_KEY, `secret_sealed`); readers of the webhook see it, as in NetBox.
    { name: 'secret', type: 'string', blank: true, default: '', maxLength: 255, secret: 'sealed' },
    { name: 'conditions', type: 'json', nullable: true, default: null },
    { name: 'ssl_verification', type: 'boolean', default: true },
    { name: 'ca_file_path', type: 'string', nullable: true, blank: true, default: null, maxLength: 4096 },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
    { name: 'secret_sealed', type: 'string', internal: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name'],
  ordering: ['name', 'id'],
  search: ['name', 'payload_url'],
  unique: [
    {
      fields: ['payload_url', 'type_create', 'type_update', 'type_delete'],
      message: 'Webhook with this URL, Type create, Type update and Type delete already exists.',
    },
  ],
  filters: { ...contentTypesFilters(), ...changeTimesBeyondNetBox },
  hooks: {
    validate: async (obj, _view, _previous, context) => validateWebhook(obj, context),
  },
  detailViews: [webhookDeliveriesView],
};

function validateWebhook(obj: StoredObject, context?: ValidationContext): FieldErrors {
  const errors: FieldErrors = {};
  const own = ownPayloadUrl(String(obj.payload_url ?? ''), context?.settings?.listen);
  if (own) errors.payload_url = [own];
  if (!obj.type_create && !obj.type_update && !obj.type_delete) {
    errors.__all__ = ['At least one type must be selected: create, update, and/or delete.'];
  }
  if (obj.conditions !== null && obj.conditions !== undefined && !isEmpty(obj.conditions)) {
    try {
      parseRuleSet(obj.conditions);
    } catch (error) {
      if (!(error instanceof InvalidConditions)) throw error;
      errors.conditions = [error.message];
    }
  }
  if (!obj.ssl_verification && obj.ca_file_path) {
    errors.ca_file_path = ['Do not specify a CA certificate file if SSL verification is disabled.'];
  }
  return errors;
}

/** Python's falsy JSON values: NetBox checks conditions only when they are "truthy". */
function isEmpty(value: unknown): boolean {
  if (value === false || value === 0 || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { identityFields } from '../commonFields.js';
import { contentTypeIdFilter } from '../contentTypeIdFilter.js';
import { ONE_VALUE } from '../filterSpecs.js';
import { fieldError, pyStr, related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { CONTACT_PRIORITY_CHOICES } from './choices.js';
import { CONTACT_MODELS } from './contactModels.js';

/**
 * A contact given a role for one object of any model that has contacts. Deleting that
 * object deletes its assignments (a generic relation); a contact or role still assigned
 * cannot be deleted.
 */
export const contactassignment: ModelDefinition = {
  key: 'tenancy.contactassignment',
  app: 'tenancy',
  model: 'contactassignment',
  path: 'contact-assignments',
  verboseName: 'contact assignment',
  verboseNamePlural: 'contact assignments',
  fields: [
    ...identityFields,
    { name: 'content_type', type: 'content_type', allowedTypes: CONTACT_MODELS, required: true },
    { name: 'object_id', type: 'integer', required: true, min: 0, max: 9223372036854776000 },
    {
      name: 'object',
      type: 'generic_fk',
      readOnly: true,
      nullable: true,
      targets: CONTACT_MODELS,
      typeField: 'content_type',
      idField: 'object_id',
      relatedName: 'contacts',
    },
    {
      name: 'contact',
      type: 'fk',
      target: 'tenancy.contact',
      onDelete: 'PROTECT',
      required: true,
      relatedName: 'assignments',
    },
    // NetBox's serializer lets the role be left out or null; the model then refuses it (see validate).
    // Its brief form shows the role's id (the nested serializer declares no nested role).
    {
      name: 'role',
      type: 'fk',
      target: 'tenancy.contactrole',
      onDelete: 'PROTECT',
      nullable: true,
      briefAttribute: 'id',
      relatedName: 'assignments',
    },
    {
      name: 'priority',
      type: 'choice',
      blank: true,
      default: '',
      defaultOnPut: true,
      choices: CONTACT_PRIORITY_CHOICES,
    },
    // A record's created reads as a date (YYYY-MM-DD); the stored value keeps the full timestamp.
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  displayReads: ['tenancy.contact'],
  brief: ['id', 'url', 'display', 'contact', 'role', 'priority'],
  // NetBox orders by priority, then by the contact's name; here by the contact's id
  ordering: ['priority', 'contact', 'id'],
  unique: [{ fields: ['content_type', 'object_id', 'contact', 'role'] }],
  filters: {
    // NetBox: ChoiceFilters (one value), not MultipleChoiceFilters
    priority: ONE_VALUE,
    content_type_id: contentTypeIdFilter('content_type', { single: true }),
    object_id: { kind: 'field', field: 'object_id', value: 'integer', lookups: ['n', 'lt', 'lte', 'gt', 'gte'] },
    contact: false,
  },
  hooks: {
    async validate(obj) {
      if (obj.role === null || obj.role === undefined) return fieldError('role', 'This field cannot be null.');
      return undefined;
    },
    display: assignmentDisplay,
  },
};

/** '<contact> (<priority>) -> <object>', or without the priority when none is set. */
async function assignmentDisplay(obj: StoredObject, view: LookupView): Promise<string> {
  const contact = await related(view, 'tenancy.contact', obj.contact);
  const target = typeof obj.content_type === 'string' ? await related(view, obj.content_type, obj.object_id) : null;
  const contactText = contact ? pyStr(contact.display ?? contact.name) : 'None';
  const targetText = target ? pyStr(target.display ?? target.id) : 'None';
  const priority = CONTACT_PRIORITY_CHOICES.find((c) => c.value === obj.priority)?.label;
  return priority ? `${contactText} (${priority}) -> ${targetText}` : `${contactText} -> ${targetText}`;
}

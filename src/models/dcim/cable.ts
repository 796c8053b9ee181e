// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields, tenantField } from '../commonFields.js';
import { ONE_VALUE, tenancyFilters } from '../filterSpecs.js';
import { genericListFilters } from '../genericListFilters.js';
import { attributeOrNumber } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { cableLocationFilters } from './cabling/cableLocationFilters.js';
import { cableProblem } from './cabling/cableRules.js';
import { cableEndFollowUps } from './cabling/cableTerminations.js';
import { CABLE_TERMINATION_MODELS } from './cabling/terminationTypes.js';
import { CABLE_LENGTH_UNIT_CHOICES, CABLE_TYPE_CHOICES, LINK_STATUS_CHOICES } from './choices.js';

const aEnd = genericListFilters('a_terminations');
const bEnd = genericListFilters('b_terminations');

export const cable: ModelDefinition = {
  key: 'dcim.cable',
  app: 'dcim',
  model: 'cable',
  path: 'cables',
  verboseName: 'cable',
  verboseNamePlural: 'cables',
  fields: [
    ...identityFields,
    { name: 'type', type: 'choice', blank: true, default: '', choiceRender: 'plain', choices: CABLE_TYPE_CHOICES },
    { name: 'a_terminations', type: 'generic_list', targets: CABLE_TERMINATION_MODELS },
    { name: 'b_terminations', type: 'generic_list', targets: CABLE_TERMINATION_MODELS },
    {
      name: 'status',
      type: 'choice',
      default: 'connected',
      choices: LINK_STATUS_CHOICES,
    },
    tenantField,
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 100 },
    { name: 'color', type: 'string', blank: true, default: '', maxLength: 6, pattern: '^[0-9a-f]{6}$' },
    { name: 'length', type: 'decimal', nullable: true, default: null, maxDigits: 8, decimalPlaces: 2 },
    {
      name: 'length_unit',
      type: 'choice',
      blank: true,
      emptyAsNull: true,
      default: '',
      choices: CABLE_LENGTH_UNIT_CHOICES,
    },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'label'],
  ordering: ['id'],
  search: ['label'],
  filters: {
    // NetBox: ChoiceFilters (one value), not MultipleChoiceFilters
    length_unit: ONE_VALUE,
    ...tenancyFilters,
    ...cableLocationFilters,
    termination_a_type: aEnd.type,
    termination_a_id: aEnd.id,
    termination_b_type: bEnd.type,
    termination_b_id: bEnd.id,
    a_terminations: false,
    b_terminations: false,
    color: { kind: 'field', field: 'color', value: 'string', lookups: ['n'] },
    description: false,
    comments: false,
  },
  hooks: {
    display: attributeOrNumber('label'),
    validate: (obj, view, previous) => cableProblem(obj, view, previous),
    // A unit without a length means nothing: NetBox blanks it on save.
    beforeSave: (obj) => {
      if (obj.length === null || obj.length === undefined) obj.length_unit = '';
    },
    followUps: (change, view) => cableEndFollowUps(change, view),
  },
};

// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields, tenantField } from '../commonFields.js';
import { tenancyFilters } from '../filterSpecs.js';
import { genericListFilters } from '../genericListFilters.js';
import { attributeOrNumber } from '../hooks.js';
import type { Choice, ModelDefinition } from '../types.js';
import { cableLocationFilters } from './cabling/cableLocationFilters.js';
import { cableProblem } from './cabling/cableRules.js';
import { cableEndFollowUps } from './cabling/cableTerminations.js';
import { CABLE_TERMINATION_MODELS } from './cabling/terminationTypes.js';

const aEnd = genericListFilters('a_terminations');
const bEnd = genericListFilters('b_terminations');

const TYPE_CHOICES: Choice[] = [
  { value: 'cat3', label: 'CAT3' },
  { value: 'cat5', label: 'CAT5' },
  { value: 'cat5e', label: 'CAT5e' },
  { value: 'cat6', label: 'CAT6' },
  { value: 'cat6a', label: 'CAT6a' },
  { value: 'cat7', label: 'CAT7' },
  { value: 'cat7a', label: 'CAT7a' },
  { value: 'cat8', label: 'CAT8' },
  { value: 'dac-active', label: 'Direct Attach Copper (Active)' },
  { value: 'dac-passive', label: 'Direct Attach Copper (Passive)' },
  { value: 'mrj21-trunk', label: 'MRJ21 Trunk' },
  { value: 'coaxial', label: 'Coaxial' },
  { value: 'mmf', label: 'Multimode Fiber' },
  { value: 'mmf-om1', label: 'Multimode Fiber (OM1)' },
  { value: 'mmf-om2', label: 'Multimode Fiber (OM2)' },
  { value: 'mmf-om3', label: 'Multimode Fiber (OM3)' },
  { value: 'mmf-om4', label: 'Multimode Fiber (OM4)' },
  { value: 'mmf-om5', label: 'Multimode Fiber (OM5)' },
  { value: 'smf', label: 'Singlemode Fiber' },
  { value: 'smf-os1', label: 'Singlemode Fiber (OS1)' },
  { value: 'smf-os2', label: 'Singlemode Fiber (OS2)' },
  { value: 'aoc', label: 'Active Optical Cabling (AOC)' },
  { value: 'power', label: 'Power' },
];

export const cable: ModelDefinition = {
  key: 'dcim.cable',
  app: 'dcim',
  model: 'cable',
  path: 'cables',
  verboseName: 'cable',
  verboseNamePlural: 'cables',
  fields: [
    ...identityFields,
    { name: 'type', type: 'choice', blank: true, default: '', choiceRender: 'plain', choices: TYPE_CHOICES },
    { name: 'a_terminations', type: 'generic_list', targets: CABLE_TERMINATION_MODELS },
    { name: 'b_terminations', type: 'generic_list', targets: CABLE_TERMINATION_MODELS },
    {
      name: 'status',
      type: 'choice',
      default: 'connected',
      choices: [
        { value: 'connected', label: 'Connected' },
        { value: 'planned', label: 'Planned' },
        { value: 'decommissioning', label: 'Decommissioning' },
      ],
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
      choices: [
        { value: 'km', label: 'Kilometers' },
        { value: 'm', label: 'Meters' },
        { value: 'cm', label: 'Centimeters' },
        { value: 'mi', label: 'Miles' },
        { value: 'ft', label: 'Feet' },
        { value: 'in', label: 'Inches' },
      ],
    },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'label'],
  ordering: ['id'],
  search: ['label'],
  filters: {
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

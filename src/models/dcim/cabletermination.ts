// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { identityFields } from '../commonFields.js';
import { attributeOrNumber } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { CABLE_TERMINATION_MODELS } from './cabling/terminationTypes.js';
import { CABLE_END_CHOICES } from './choices.js';

export const cabletermination: ModelDefinition = {
  key: 'dcim.cabletermination',
  app: 'dcim',
  model: 'cabletermination',
  path: 'cable-terminations',
  verboseName: 'cable termination',
  verboseNamePlural: 'cable terminations',
  fields: [
    ...identityFields,
    {
      name: 'cable',
      type: 'fk',
      target: 'dcim.cable',
      onDelete: 'CASCADE',
      representation: 'id',
      required: true,
      relatedName: 'terminations',
    },
    {
      name: 'cable_end',
      type: 'choice',
      required: true,
      choiceRender: 'plain',
      choices: CABLE_END_CHOICES,
    },
    {
      name: 'termination_type',
      type: 'content_type',
      allowedTypes: CABLE_TERMINATION_MODELS,
      required: true,
    },
    { name: 'termination_id', type: 'integer', required: true, min: 0, max: 9223372036854776000 },
    {
      name: 'termination',
      type: 'generic_fk',
      readOnly: true,
      targets: CABLE_TERMINATION_MODELS,
      typeField: 'termination_type',
      idField: 'termination_id',
    },
  ],
  displayReads: ['dcim.cable'],
  brief: ['id', 'url', 'display', 'cable', 'cable_end', 'termination_type', 'termination_id', 'termination'],
  // NetBox orders cable by its own ordering; here by id
  ordering: ['cable', 'cable_end', 'id'],
  // a cable orders by its id: no key to keep
  idOrderedRelations: ['cable'],
  search: [],
  unique: [{ fields: ['termination_type', 'termination_id'] }],
  // Kept by the cable it belongs to: written through the cable's a_terminations / b_terminations only.
  readOnly: true,
  changeLogged: false,
  filters: {
    cable: { kind: 'related', target: 'dcim.cable', path: ['cable'] },
    cable_id: false,
  },
  hooks: {
    display: async (obj, view) => {
      const cable = await view.get('dcim.cable', Number(obj.cable));
      const end = await view.get(String(obj.termination_type), Number(obj.termination_id));
      return `Cable ${cable ? attributeOrNumber('label')(cable) : 'None'} to ${end ? String(end.display ?? end.id) : 'None'}`;
    },
  },
};

// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import { nameWithLabel } from '../hooks.js';
import type { ModelDefinition } from '../types.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { cableEndFields, occupiedField, pathEndpointFields } from './cableFields.js';
import { traceView } from './cabling/traceViews.js';
import { POWER_PORT_TYPE_CHOICES } from './choices.js';
import { cableableComponentFilters } from './componentFilters.js';
import { componentMoveProblem, deviceParent, markedWhileCabledProblem } from './componentParents.js';
import { drawProblem } from './powerComponentRules.js';

export const powerport: ModelDefinition = {
  key: 'dcim.powerport',
  app: 'dcim',
  model: 'powerport',
  path: 'power-ports',
  verboseName: 'power port',
  verboseNamePlural: 'power ports',
  fields: [
    ...identityFields,
    { name: 'device', type: 'fk', target: 'dcim.device', onDelete: 'CASCADE', required: true },
    { name: 'module', type: 'fk', target: 'dcim.module', onDelete: 'CASCADE', nullable: true, default: null },
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 64 },
    { name: 'type', type: 'choice', blank: true, emptyAsNull: true, default: '', choices: POWER_PORT_TYPE_CHOICES },
    { name: 'maximum_draw', type: 'integer', nullable: true, default: null, min: 1, max: 32767 },
    { name: 'allocated_draw', type: 'integer', nullable: true, default: null, min: 1, max: 32767 },
    descriptionField,
    { name: 'mark_connected', type: 'boolean', default: false },
    ...cableEndFields,
    ...pathEndpointFields,
    ...changeLoggedFields,
    occupiedField,
  ],
  brief: ['id', 'url', 'display', 'device', 'name', 'cable', '_occupied'],
  // NetBox orders device by its own ordering; here by id
  ordering: ['device', '_name', 'id'],
  search: ['name', 'label', 'description'],
  unique: [{ fields: ['device', 'name'] }],
  filters: cableableComponentFilters,
  detailViews: [traceView],
  hooks: {
    display: nameWithLabel,
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    validate: async (obj, _view, previous) =>
      componentMoveProblem(obj, previous) ?? markedWhileCabledProblem(obj) ?? drawProblem(obj),
    relatedObject: deviceParent,
  },
};

// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import { nameWithLabel } from '../hooks.js';
import type { ModelDefinition } from '../types.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { cableEndFields, occupiedField, pathEndpointFields } from './cableFields.js';
import { traceView } from './cabling/traceViews.js';
import { CONSOLE_PORT_SPEED_CHOICES, CONSOLE_PORT_TYPE_CHOICES } from './choices.js';
import { cableableComponentFilters } from './componentFilters.js';
import { componentMoveProblem, deviceParent, markedWhileCabledProblem } from './componentParents.js';

export const consoleserverport: ModelDefinition = {
  key: 'dcim.consoleserverport',
  app: 'dcim',
  model: 'consoleserverport',
  path: 'console-server-ports',
  verboseName: 'console server port',
  verboseNamePlural: 'console server ports',
  fields: [
    ...identityFields,
    { name: 'device', type: 'fk', target: 'dcim.device', onDelete: 'CASCADE', required: true },
    { name: 'module', type: 'fk', target: 'dcim.module', onDelete: 'CASCADE', nullable: true, default: null },
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 64 },
    { name: 'type', type: 'choice', blank: true, emptyAsNull: true, default: '', choices: CONSOLE_PORT_TYPE_CHOICES },
    { name: 'speed', type: 'choice', nullable: true, default: null, choices: CONSOLE_PORT_SPEED_CHOICES },
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
  filters: { ...cableableComponentFilters, speed: false },
  detailViews: [traceView],
  hooks: {
    display: nameWithLabel,
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    validate: async (obj, _view, previous) => componentMoveProblem(obj, previous) ?? markedWhileCabledProblem(obj),
    relatedObject: deviceParent,
  },
};

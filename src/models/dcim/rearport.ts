// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { PORT_TYPE_CHOICES } from './choices.js';
import { colorField, positionsField } from './componentFields.js';
import { deviceComponentModel } from './deviceComponentModel.js';
import { rearPortPositionsProblem } from './portMapping.js';

export const rearport = deviceComponentModel({
  key: 'dcim.rearport',
  path: 'rear-ports',
  verboseName: 'rear port',
  cabling: 'pass-through',
  modular: true,
  fields: [{ name: 'type', type: 'choice', required: true, choices: PORT_TYPE_CHOICES }, colorField, positionsField],
  rule: (obj, view, previous) => rearPortPositionsProblem('dcim.frontport', obj, view, previous),
});

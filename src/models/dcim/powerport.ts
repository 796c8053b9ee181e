// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { POWER_PORT_TYPE_CHOICES } from './choices.js';
import { drawFields, optionalTypeField } from './componentFields.js';
import { deviceComponentModel } from './deviceComponentModel.js';
import { drawProblem } from './powerComponentRules.js';

export const powerport = deviceComponentModel({
  key: 'dcim.powerport',
  path: 'power-ports',
  verboseName: 'power port',
  cabling: 'endpoint',
  modular: true,
  fields: [optionalTypeField(POWER_PORT_TYPE_CHOICES), ...drawFields],
  rule: drawProblem,
});

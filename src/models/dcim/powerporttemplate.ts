// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { ONE_VALUE } from '../filterSpecs.js';
import { POWER_PORT_TYPE_CHOICES } from './choices.js';
import { drawFields, optionalTypeField } from './componentFields.js';
import { componentTemplateModel } from './componentTemplateModel.js';
import { drawProblem } from './powerComponentRules.js';

export const powerporttemplate = componentTemplateModel({
  key: 'dcim.powerporttemplate',
  path: 'power-port-templates',
  verboseName: 'power port template',
  modular: true,
  fields: [optionalTypeField(POWER_PORT_TYPE_CHOICES), ...drawFields],
  filters: { type: ONE_VALUE, label: false, description: false },
  rule: drawProblem,
});

// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { PORT_TYPE_CHOICES } from './choices.js';
import { colorField, positionsField } from './componentFields.js';
import { componentTemplateModel } from './componentTemplateModel.js';
import { rearPortPositionsProblem } from './portMapping.js';

export const rearporttemplate = componentTemplateModel({
  key: 'dcim.rearporttemplate',
  path: 'rear-port-templates',
  verboseName: 'rear port template',
  modular: true,
  fields: [{ name: 'type', type: 'choice', required: true, choices: PORT_TYPE_CHOICES }, colorField, positionsField],
  rule: (obj, view, previous) => rearPortPositionsProblem('dcim.frontporttemplate', obj, view, previous),
});

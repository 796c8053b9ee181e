// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { ONE_VALUE } from '../filterSpecs.js';
import { POWER_OUTLET_TYPE_CHOICES } from './choices.js';
import { feedLegField, optionalTypeField } from './componentFields.js';
import { componentTemplateModel } from './componentTemplateModel.js';
import { outletTemplatePowerPortProblem } from './powerComponentRules.js';

export const poweroutlettemplate = componentTemplateModel({
  key: 'dcim.poweroutlettemplate',
  path: 'power-outlet-templates',
  verboseName: 'power outlet template',
  modular: true,
  fields: [
    optionalTypeField(POWER_OUTLET_TYPE_CHOICES),
    {
      name: 'power_port',
      type: 'fk',
      target: 'dcim.powerporttemplate',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
      relatedName: 'poweroutlet_templates',
    },
    feedLegField,
  ],
  filters: { type: ONE_VALUE, label: false, description: false, power_port_id: false, power_port: false },
  rule: outletTemplatePowerPortProblem,
});

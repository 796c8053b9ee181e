// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { POWER_OUTLET_TYPE_CHOICES } from './choices.js';
import { feedLegField, optionalTypeField } from './componentFields.js';
import { deviceComponentModel } from './deviceComponentModel.js';
import { outletPowerPortProblem } from './powerComponentRules.js';

export const poweroutlet = deviceComponentModel({
  key: 'dcim.poweroutlet',
  path: 'power-outlets',
  verboseName: 'power outlet',
  cabling: 'endpoint',
  modular: true,
  fields: [
    optionalTypeField(POWER_OUTLET_TYPE_CHOICES),
    {
      name: 'power_port',
      type: 'fk',
      target: 'dcim.powerport',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
      relatedName: 'poweroutlets',
    },
    feedLegField,
  ],
  filters: { power_port_id: false, power_port: false },
  rule: outletPowerPortProblem,
});

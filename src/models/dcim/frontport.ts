// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { BEYOND_NETBOX } from '../filterSpecs.js';
import { PORT_TYPE_CHOICES } from './choices.js';
import { colorField, rearPortPositionField } from './componentFields.js';
import { deviceComponentModel } from './deviceComponentModel.js';
import { frontPortMappingProblem } from './portMapping.js';

export const frontport = deviceComponentModel({
  key: 'dcim.frontport',
  path: 'front-ports',
  verboseName: 'front port',
  cabling: 'pass-through',
  modular: true,
  fields: [
    { name: 'type', type: 'choice', required: true, choices: PORT_TYPE_CHOICES },
    colorField,
    {
      name: 'rear_port',
      type: 'fk',
      target: 'dcim.rearport',
      onDelete: 'CASCADE',
      required: true,
      relatedName: 'frontports',
    },
    rearPortPositionField,
  ],
  unique: [{ fields: ['device', 'name'] }, { fields: ['rear_port', 'rear_port_position'] }],
  filters: {
    rear_port_position: BEYOND_NETBOX,
    // NetBox does not filter front ports by rear port: the parameter is ignored (the collection's front port module sends it)
    rear_port: false,
    rear_port_id: false,
  },
  rule: frontPortMappingProblem,
});

// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { BEYOND_NETBOX } from '../filterSpecs.js';
import { PORT_TYPE_CHOICES } from './choices.js';
import { colorField, rearPortPositionField } from './componentFields.js';
import { componentTemplateModel } from './componentTemplateModel.js';
import { frontPortTemplateMappingProblem } from './portMapping.js';

export const frontporttemplate = componentTemplateModel({
  key: 'dcim.frontporttemplate',
  path: 'front-port-templates',
  verboseName: 'front port template',
  modular: true,
  fields: [
    { name: 'type', type: 'choice', required: true, choices: PORT_TYPE_CHOICES },
    colorField,
    {
      name: 'rear_port',
      type: 'fk',
      target: 'dcim.rearporttemplate',
      onDelete: 'CASCADE',
      required: true,
      relatedName: 'frontport_templates',
    },
    rearPortPositionField,
  ],
  unique: [
    { fields: ['device_type', 'name'] },
    { fields: ['module_type', 'name'] },
    { fields: ['rear_port', 'rear_port_position'] },
  ],
  filters: {
    // NetBox 3.4 has no rear port filter here, and clients send one (Ansible's module: rear_port=<id>), expecting it ignored
    rear_port_id: false,
    rear_port: false,
    rear_port_position: BEYOND_NETBOX,
  },
  rule: frontPortTemplateMappingProblem,
});

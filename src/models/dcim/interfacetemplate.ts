// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { naturalInterfaceKey } from '../values/naturalSortKey.js';
import { INTERFACE_TYPE_CHOICES } from './choices.js';
import { poeFields } from './componentFields.js';
import { componentTemplateModel } from './componentTemplateModel.js';

export const interfacetemplate = componentTemplateModel({
  key: 'dcim.interfacetemplate',
  path: 'interface-templates',
  verboseName: 'interface template',
  modular: true,
  fields: [
    { name: 'type', type: 'choice', required: true, choices: INTERFACE_TYPE_CHOICES },
    { name: 'mgmt_only', type: 'boolean', default: false },
  ],
  afterDescription: poeFields,
  hooks: {
    derive: (obj) => ({ _name: naturalInterfaceKey(obj.name) }),
    // Change records of interface templates name no related object yet (NetBox names the device or module type)
    relatedObject: undefined,
  },
});

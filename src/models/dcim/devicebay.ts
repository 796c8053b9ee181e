// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { BEYOND_NETBOX } from '../filterSpecs.js';
import { deviceBayProblem } from './deviceBays.js';
import { deviceComponentModel } from './deviceComponentModel.js';

export const devicebay = deviceComponentModel({
  key: 'dcim.devicebay',
  path: 'device-bays',
  verboseName: 'device bay',
  afterDescription: [
    {
      name: 'installed_device',
      type: 'fk',
      target: 'dcim.device',
      onDelete: 'SET_NULL',
      oneToOne: true,
      nullable: true,
      default: null,
      unique: true,
      relatedName: 'parent_bay',
    },
  ],
  filters: { installed_device_id: BEYOND_NETBOX, installed_device: BEYOND_NETBOX },
  rule: deviceBayProblem,
});

// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { deviceComponentModel } from './deviceComponentModel.js';

export const modulebay = deviceComponentModel({
  key: 'dcim.modulebay',
  path: 'module-bays',
  verboseName: 'module bay',
  afterName: [
    // Owned by the module's module_bay: a module is installed by creating it in the bay.
    {
      name: 'installed_module',
      type: 'reverse',
      target: 'dcim.module',
      via: 'module_bay',
      oneToOne: true,
      readOnly: true,
      nullable: true,
    },
  ],
  fields: [{ name: 'position', type: 'string', blank: true, default: '', maxLength: 30 }],
  brief: ['id', 'url', 'display', 'name'],
  // Change records of module bays name no related object yet (NetBox names the device)
  hooks: { relatedObject: undefined },
});

// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { modularTemplateParentProblem } from './componentParents.js';
import { componentTemplateModel } from './componentTemplateModel.js';

export const modulebaytemplate = componentTemplateModel({
  key: 'dcim.modulebaytemplate',
  path: 'module-bay-templates',
  verboseName: 'module bay template',
  fields: [{ name: 'position', type: 'string', blank: true, default: '', maxLength: 30 }],
  hooks: {
    // Only device types have module bays, yet the rule held is that of templates modules can have
    validate: async (obj, _view, previous) => modularTemplateParentProblem(obj, previous),
    // Change records of module bay templates name no related object yet (NetBox names the device type)
    relatedObject: undefined,
  },
});

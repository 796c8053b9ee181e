// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { componentTemplateModel } from './componentTemplateModel.js';
import { deviceBayTemplateProblem } from './deviceBays.js';

export const devicebaytemplate = componentTemplateModel({
  key: 'dcim.devicebaytemplate',
  path: 'device-bay-templates',
  verboseName: 'device bay template',
  rule: deviceBayTemplateProblem,
});

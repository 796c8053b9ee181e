// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { ONE_VALUE } from '../filterSpecs.js';
import { CONSOLE_PORT_TYPE_CHOICES } from './choices.js';
import { optionalTypeField } from './componentFields.js';
import { componentTemplateModel } from './componentTemplateModel.js';

export const consoleporttemplate = componentTemplateModel({
  key: 'dcim.consoleporttemplate',
  path: 'console-port-templates',
  verboseName: 'console port template',
  modular: true,
  fields: [optionalTypeField(CONSOLE_PORT_TYPE_CHOICES)],
  filters: { type: ONE_VALUE, label: false, description: false },
});

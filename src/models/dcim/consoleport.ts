// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { CONSOLE_PORT_SPEED_CHOICES, CONSOLE_PORT_TYPE_CHOICES } from './choices.js';
import { optionalTypeField } from './componentFields.js';
import { deviceComponentModel } from './deviceComponentModel.js';

export const consoleport = deviceComponentModel({
  key: 'dcim.consoleport',
  path: 'console-ports',
  verboseName: 'console port',
  cabling: 'endpoint',
  modular: true,
  fields: [
    optionalTypeField(CONSOLE_PORT_TYPE_CHOICES),
    { name: 'speed', type: 'choice', nullable: true, default: null, choices: CONSOLE_PORT_SPEED_CHOICES },
  ],
  filters: { speed: false },
});

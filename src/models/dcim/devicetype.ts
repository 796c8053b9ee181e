// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import {
  changeLoggedFields,
  countField,
  descriptionField,
  identityFields,
  scopedSlugField,
  weightUnitField,
} from '../commonFields.js';
import { ONE_VALUE } from '../filterSpecs.js';
import { hasRelated } from '../hasRelatedFilter.js';
import { displayAttribute, fieldError } from '../hooks.js';
import { hasImage, imageField, imageFieldsOf, normalizeImageFields } from '../imageFields.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { AIRFLOW_CHOICES, SUBDEVICE_ROLE_CHOICES } from './choices.js';

/** Where device types' front and rear images are stored and served. */
const IMAGE_DIRECTORY = 'devicetype-images';

export const devicetype: ModelDefinition = {
  key: 'dcim.devicetype',
  app: 'dcim',
  model: 'devicetype',
  path: 'device-types',
  verboseName: 'device type',
  verboseNamePlural: 'device types',
  fields: [
    ...identityFields,
    { name: 'manufacturer', type: 'fk', target: 'dcim.manufacturer', onDelete: 'PROTECT', required: true },
    { name: 'model', type: 'string', required: true, maxLength: 100 },
    scopedSlugField,
    { name: 'part_number', type: 'string', blank: true, default: '', maxLength: 50 },
    { name: 'u_height', type: 'decimal', default: 1, min: 0, maxDigits: 4, decimalPlaces: 1 },
    { name: 'is_full_depth', type: 'boolean', default: true },
    {
      name: 'subdevice_role',
      type: 'choice',
      blank: true,
      emptyAsNull: true,
      default: '',
      choices: SUBDEVICE_ROLE_CHOICES,
    },
    { name: 'airflow', type: 'choice', blank: true, emptyAsNull: true, default: '', choices: AIRFLOW_CHOICES },
    { name: 'weight', type: 'decimal', nullable: true, default: null, maxDigits: 8, decimalPlaces: 2 },
    weightUnitField,
    ...imageField('front_image', IMAGE_DIRECTORY),
    ...imageField('rear_image', IMAGE_DIRECTORY),
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
    countField('device_count', 'dcim.device', 'device_type'),
  ],
  brief: ['id', 'url', 'display', 'manufacturer', 'model', 'slug', 'device_count'],
  // NetBox orders manufacturer by name; here by id
  ordering: ['manufacturer', 'model', 'id'],
  unique: [{ fields: ['manufacturer', 'model'] }, { fields: ['manufacturer', 'slug'] }],
  search: ['model', 'part_number', 'comments'],
  filters: {
    // NetBox: ChoiceFilters (one value), not MultipleChoiceFilters
    subdevice_role: ONE_VALUE,
    airflow: ONE_VALUE,
    weight_unit: ONE_VALUE,
    has_front_image: hasImage('front_image'),
    has_rear_image: hasImage('rear_image'),
    console_ports: hasRelated('dcim.consoleporttemplate', 'device_type'),
    console_server_ports: hasRelated('dcim.consoleserverporttemplate', 'device_type'),
    power_ports: hasRelated('dcim.powerporttemplate', 'device_type'),
    power_outlets: hasRelated('dcim.poweroutlettemplate', 'device_type'),
    interfaces: hasRelated('dcim.interfacetemplate', 'device_type'),
    pass_through_ports: hasRelated(['dcim.frontporttemplate', 'dcim.rearporttemplate'], 'device_type'),
    module_bays: hasRelated('dcim.modulebaytemplate', 'device_type'),
    device_bays: hasRelated('dcim.devicebaytemplate', 'device_type'),
    inventory_items: hasRelated('dcim.inventoryitemtemplate', 'device_type'),
  },
  hooks: {
    display: displayAttribute('model'),
    normalize: (obj) => normalizeImageFields(imageFieldsOf(devicetype), obj),
    async validate(obj, view, previous) {
      if (obj.weight && !obj.weight_unit) return fieldError('__all__', 'Must specify a unit when setting a weight');
      const height = Number(obj.u_height ?? 0);
      if (!Number.isInteger(height * 2)) {
        return fieldError('u_height', 'U height must be in increments of 0.5 rack units.');
      }
      if (
        previous &&
        obj.subdevice_role !== 'parent' &&
        (await view.find('dcim.devicebaytemplate', { device_type: obj.id }, 1)).length
      ) {
        return fieldError(
          'subdevice_role',
          'Must delete all device bay templates associated with this device before declassifying it as a parent device.',
        );
      }
      if (height && obj.subdevice_role === 'child') return fieldError('u_height', 'Child device types must be 0U.');
    },
  },
};

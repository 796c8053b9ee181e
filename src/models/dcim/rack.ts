// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import {
  assetTagField,
  changeLoggedFields,
  countField,
  descriptionField,
  identityFields,
  tenantField,
  weightUnitField,
} from '../commonFields.js';
import { contactFilters, ONE_VALUE, siteScopeFilters, tenancyFilters, treeFilters } from '../filterSpecs.js';
import { pyStr, related } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { RACK_DIMENSION_UNIT_CHOICES, RACK_STATUS_CHOICES, RACK_TYPE_CHOICES, RACK_WIDTH_CHOICES } from './choices.js';
import { rackElevationView } from './rackElevation.js';

/** str(rack): the name, followed by ' (<facility_id>)' when facility_id is set. */
export function rackDisplay(obj: StoredObject): string {
  return obj.facility_id ? `${pyStr(obj.name)} (${String(obj.facility_id)})` : pyStr(obj.name);
}

export const rack: ModelDefinition = {
  key: 'dcim.rack',
  app: 'dcim',
  model: 'rack',
  path: 'racks',
  verboseName: 'rack',
  verboseNamePlural: 'racks',
  fields: [
    ...identityFields,
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    {
      name: 'facility_id',
      label: 'Facility ID',
      type: 'string',
      nullable: true,
      blank: true,
      default: null,
      maxLength: 50,
    },
    { name: 'site', type: 'fk', target: 'dcim.site', onDelete: 'PROTECT', required: true },
    { name: 'location', type: 'fk', target: 'dcim.location', onDelete: 'SET_NULL', nullable: true, default: null },
    tenantField,
    {
      name: 'status',
      type: 'choice',
      default: 'active',
      choices: RACK_STATUS_CHOICES,
    },
    { name: 'role', type: 'fk', target: 'dcim.rackrole', onDelete: 'PROTECT', nullable: true, default: null },
    { name: 'serial', type: 'string', blank: true, default: '', maxLength: 50 },
    assetTagField,
    { name: 'type', type: 'choice', blank: true, emptyAsNull: true, default: '', choices: RACK_TYPE_CHOICES },
    {
      name: 'width',
      type: 'choice',
      default: 19,
      choices: RACK_WIDTH_CHOICES,
    },
    { name: 'u_height', type: 'integer', default: 42, min: 1, max: 100 },
    { name: 'weight', type: 'decimal', nullable: true, default: null, maxDigits: 8, decimalPlaces: 2 },
    { name: 'max_weight', type: 'integer', nullable: true, default: null, min: 0, max: 2147483647 },
    weightUnitField,
    { name: 'desc_units', type: 'boolean', default: false },
    { name: 'outer_width', type: 'integer', nullable: true, default: null, min: 0, max: 32767 },
    { name: 'outer_depth', type: 'integer', nullable: true, default: null, min: 0, max: 32767 },
    {
      name: 'outer_unit',
      type: 'choice',
      blank: true,
      emptyAsNull: true,
      default: '',
      choices: RACK_DIMENSION_UNIT_CHOICES,
    },
    { name: 'mounting_depth', type: 'integer', nullable: true, default: null, min: 0, max: 32767 },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
    countField('device_count', 'dcim.device', 'rack'),
    countField('powerfeed_count', 'dcim.powerfeed', 'rack'),
  ],
  brief: ['id', 'url', 'display', 'name', 'device_count'],
  // NetBox orders site by natural name and location by tree order (nulls last); here by id
  ordering: ['site', 'location', '_name', 'id'],
  unique: [{ fields: ['location', 'name'] }, { fields: ['location', 'facility_id'] }],
  search: ['name', 'facility_id', 'serial', 'asset_tag', 'comments'],
  filters: {
    // NetBox: ChoiceFilters (one value), not MultipleChoiceFilters
    outer_unit: ONE_VALUE,
    weight_unit: ONE_VALUE,
    ...tenancyFilters,
    ...contactFilters,
    ...siteScopeFilters(['site']),
    ...treeFilters('location_id', 'location', 'dcim.location', ['location']),
  },
  detailViews: [rackElevationView],
  hooks: {
    display: rackDisplay,
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    normalize(obj) {
      // NetBox blanks the outer unit on save when no outer dimension is set.
      if (obj.outer_width == null && obj.outer_depth == null) obj.outer_unit = '';
    },
    async validate(obj, view) {
      if (obj.weight && !obj.weight_unit) return { __all__: ['Must specify a unit when setting a weight'] };
      const location = await related(view, 'dcim.location', obj.location);
      if (location && location.site !== obj.site) {
        const site = await related(view, 'dcim.site', obj.site);
        return { __all__: [`Assigned location must belong to parent site (${pyStr(site?.name)}).`] };
      }
      if ((obj.outer_width != null || obj.outer_depth != null) && !obj.outer_unit) {
        return { __all__: ['Must specify a unit when setting an outer width/depth'] };
      }
      if (obj.max_weight && !obj.weight_unit) return { __all__: ['Must specify a unit when setting a maximum weight'] };
    },
  },
};

/**
 * List filters shared by device components (where their device is; for the cabled ones,
 * their cable state) and by component templates (whose template they are).
 */
import { pairFilters, siteScopeFilters } from '../filterSpecs.js';
import type { FilterSpec } from '../filterTypes.js';

/** Where the component's device is: its site (and region, site group), location, rack and virtual chassis. */
export const deviceScopeFilters: Record<string, FilterSpec> = {
  ...siteScopeFilters(['device', 'site']),
  ...pairFilters('site_id', 'site', 'dcim.site', ['device', 'site']),
  ...pairFilters('location_id', 'location', 'dcim.location', ['device', 'location']),
  ...pairFilters('rack_id', 'rack', 'dcim.rack', ['device', 'rack'], 'name'),
  ...pairFilters('virtual_chassis_id', 'virtual_chassis', 'dcim.virtualchassis', ['device', 'virtual_chassis'], 'name'),
};

/** A template only device types have is found by its device type (NetBox names it without the underscore). */
export const deviceTypeTemplateFilters: Record<string, FilterSpec> = {
  devicetype_id: { kind: 'related', target: 'dcim.devicetype', path: ['device_type'] },
  device_type_id: false,
  device_type: false,
};

/** A template modules can have too is found by its device type or module type. */
export const modularTemplateFilters: Record<string, FilterSpec> = {
  devicetype_id: deviceTypeTemplateFilters.devicetype_id,
  moduletype_id: { kind: 'related', target: 'dcim.moduletype', path: ['module_type'] },
  device_type_id: false,
  device_type: false,
  module_type_id: false,
};

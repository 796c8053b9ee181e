/**
 * List filters shared by the device components that can be cabled (console ports, power
 * ports, ...) and by the component templates.
 */
import { pairFilters, siteScopeFilters } from '../filterSpecs.js';
import type { FilterSpec } from '../types.js';
import { cabledObjectFilters, pathEndpointFilters } from './cabledObjectFilters.js';

/** Where the component's device is, its cable state; the fields NetBox does not filter on. */
export const cableableComponentFilters: Record<string, FilterSpec> = {
  ...siteScopeFilters(['device', 'site']),
  ...pairFilters('site_id', 'site', 'dcim.site', ['device', 'site']),
  ...pairFilters('location_id', 'location', 'dcim.location', ['device', 'location']),
  ...pairFilters('rack_id', 'rack', 'dcim.rack', ['device', 'rack'], 'name'),
  ...pairFilters('virtual_chassis_id', 'virtual_chassis', 'dcim.virtualchassis', ['device', 'virtual_chassis'], 'name'),
  ...cabledObjectFilters,
  ...pathEndpointFilters,
  mark_connected: false,
};

/** A template is found by its device type or module type (NetBox names these without the underscore). */
export const componentTemplateFilters: Record<string, FilterSpec> = {
  devicetype_id: { kind: 'related', target: 'dcim.devicetype', path: ['device_type'] },
  moduletype_id: { kind: 'related', target: 'dcim.moduletype', path: ['module_type'] },
  device_type_id: false,
  device_type: false,
  module_type_id: false,
  label: false,
  description: false,
};

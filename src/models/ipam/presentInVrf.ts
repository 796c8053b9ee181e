import { UNKNOWN_CHOICE } from '../filterSpecs.js';
import type { FilterMethod, FilterSpec } from '../filterTypes.js';

/** `present_in_vrf_id` and `present_in_vrf` of prefixes and IP addresses (one VRF, by id or by rd). */
export const presentInVrfFilters: Record<string, FilterSpec> = {
  present_in_vrf_id: {
    kind: 'method',
    value: 'integer',
    single: true,
    netboxReads: 'object',
    method: presentInVrf('id'),
  },
  present_in_vrf: { kind: 'method', single: true, method: presentInVrf('rd') },
};

/**
 * Objects in the VRF (by id or rd) or in a VRF exporting a route target it imports. An
 * unknown VRF is a 400.
 */
function presentInVrf(by: 'id' | 'rd'): FilterMethod {
  return async ([value], env) => {
    const [vrf] = await env.find('ipam.vrf', { [by]: value }, 1);
    if (!vrf) env.invalid(UNKNOWN_CHOICE);
    const imported = Array.isArray(vrf.import_targets) ? vrf.import_targets : [];
    if (imported.length === 0) return { vrf: vrf.id };
    const exporters = await env.ids('ipam.vrf', { export_targets: { $in: imported } });
    return { vrf: { $in: [...new Set([vrf.id, ...exporters])] } };
  };
}

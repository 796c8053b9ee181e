/**
 * What an interface, VM interface or VLAN shows of the L2VPN it terminates: its
 * `l2vpn_termination` (the termination naming it, nested, or null) and the `l2vpn` /
 * `l2vpn_id` filters, which follow the terminations that name the object.
 */
import type { FieldDefinition, GenericListItem } from '../fieldDefinition.js';
import type { FilterSpec, GenericHolder } from '../filterTypes.js';
import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';

const TERMINATION = 'ipam.l2vpntermination';

const TERMINATIONS: GenericHolder = {
  model: TERMINATION,
  typeField: 'assigned_object_type',
  idField: 'assigned_object_id',
};

/** The `l2vpn_termination` field of a `model` ('<app>.<model>') that can terminate an L2VPN. */
export function l2vpnTerminationField(model: string): FieldDefinition {
  return {
    name: 'l2vpn_termination',
    type: 'computed',
    readOnly: true,
    nullable: true,
    references: 'one',
    targets: [TERMINATION],
    dependsOn: [TERMINATION],
    computeMany: (objs, view) => terminationsOf(model, objs, view),
  };
}

/** Each object's termination, or null: one query for the whole page (an object terminates one L2VPN at most). */
async function terminationsOf(
  model: string,
  objs: StoredObject[],
  view: LookupView,
): Promise<Array<GenericListItem | null>> {
  if (objs.length === 0) return [];
  const found = await view.find(TERMINATION, {
    assigned_object_type: model,
    assigned_object_id: { $in: objs.map((o) => o.id) },
  });
  const byObject = new Map(found.map((t) => [t.assigned_object_id, t.id]));
  return objs.map((o) => {
    const id = byObject.get(o.id);
    return id === undefined ? null : { object_type: TERMINATION, object_id: id };
  });
}

/** Objects terminating the L2VPNs given by id (`l2vpn_id`) or by numeric identifier (`l2vpn`). */
export const l2vpnFilters: Record<string, FilterSpec> = {
  l2vpn_id: { kind: 'related', target: 'ipam.l2vpn', path: ['l2vpn'], through: TERMINATIONS },
  l2vpn: { kind: 'related', target: 'ipam.l2vpn', by: 'identifier', path: ['l2vpn'], through: TERMINATIONS },
};

/**
 * A circuit's `termination_a` and `termination_z`: the termination on each side, shown
 * with the fields NetBox's circuit serializer gives it (where the circuit ends, at what
 * speeds), or null. NetBox caches them as keys on the circuit; here they are read from
 * the terminations themselves, so deleting one or moving it to the other side shows at once.
 */
import type { FieldDefinition, GenericListItem } from '../fieldDefinition.js';
import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';

const TERMINATION = 'circuits.circuittermination';

/** What a circuit shows of each of its terminations. */
export const TERMINATION_SHOWN = [
  'id',
  'url',
  'display',
  'site',
  'provider_network',
  'port_speed',
  'upstream_speed',
  'xconnect_id',
  'description',
];

/** The circuit field naming its termination on `side`. */
export function terminationField(side: 'A' | 'Z'): FieldDefinition {
  return {
    name: `termination_${side.toLowerCase()}`,
    type: 'computed',
    readOnly: true,
    nullable: true,
    references: 'one',
    referenceFields: TERMINATION_SHOWN,
    targets: [TERMINATION],
    dependsOn: [TERMINATION],
    computeMany: (circuits, view) => terminationsOnSide(side, circuits, view),
  };
}

/** Each circuit's termination on `side`, or null: one query for the whole page. */
export async function terminationsOnSide(
  side: 'A' | 'Z',
  circuits: StoredObject[],
  view: LookupView,
): Promise<Array<GenericListItem | null>> {
  if (circuits.length === 0) return [];
  const found = await view.find(TERMINATION, { circuit: { $in: circuits.map((c) => c.id) }, term_side: side });
  const bySide = new Map(found.map((t) => [t.circuit, t.id]));
  return circuits.map((c) => {
    const id = bySide.get(c.id);
    return id === undefined ? null : { object_type: TERMINATION, object_id: id };
  });
}

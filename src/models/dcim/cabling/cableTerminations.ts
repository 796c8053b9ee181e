/**
 * What a cable's write does to its ends (NetBox's Cable.save and CableTermination.save /
 * delete): one cable termination per end object, created for objects added to an end
 * and deleted for objects taken off it, and each object's own `cable` / `cable_end` set
 * or cleared to match. Recorded as events of the cable's request, so history, revert
 * and replay see the ends change with the cable.
 */
import type { DecidedChange, FollowUpCommand } from '../../compositeWrites.js';
import type { GenericListItem } from '../../fieldDefinition.js';
import type { LookupView } from '../../lookupView.js';
import { terminationsOf } from './cableRules.js';

const TERMINATION = 'dcim.cabletermination';
const key = (end: string, i: GenericListItem) => `${end}:${i.object_type}:${i.object_id}`;

export async function cableEndFollowUps(
  { obj, previous }: DecidedChange,
  view: LookupView,
): Promise<FollowUpCommand[]> {
  const before = new Map<string, { end: 'A' | 'B'; item: GenericListItem }>();
  const after = new Map<string, { end: 'A' | 'B'; item: GenericListItem }>();
  for (const end of ['A', 'B'] as const) {
    if (previous) for (const item of terminationsOf(previous, end)) before.set(key(end, item), { end, item });
    for (const item of terminationsOf(obj, end)) after.set(key(end, item), { end, item });
  }
  const commands: FollowUpCommand[] = [];
  for (const [k, { item }] of before) {
    if (after.has(k)) continue;
    const [held] = await view.find(
      TERMINATION,
      { cable: obj.id, termination_type: item.object_type, termination_id: item.object_id },
      1,
    );
    if (held) commands.push({ kind: 'delete', model: TERMINATION, id: held.id });
    const current = await view.get(item.object_type, item.object_id);
    if (current && current.cable === obj.id)
      commands.push({
        kind: 'set',
        model: item.object_type,
        id: item.object_id,
        values: { cable: null, cable_end: '' },
      });
  }
  for (const [k, { end, item }] of after) {
    if (before.has(k)) continue;
    commands.push({
      kind: 'create',
      model: TERMINATION,
      input: { cable: obj.id, cable_end: end, termination_type: item.object_type, termination_id: item.object_id },
    });
    commands.push({
      kind: 'set',
      model: item.object_type,
      id: item.object_id,
      values: { cable: obj.id, cable_end: end },
    });
  }
  return commands;
}

import { checkUniqueness } from '../commands/checkUniqueness.js';
import { displayOf } from '../commands/decideObject.js';
import { assertReferencesExist, assertUnreferenced } from '../commands/referentialChecks.js';
import { storedForm } from '../commands/storedForm.js';
import type { WriteContext, WriteCoordinator } from '../commands/WriteCoordinator.js';
import { ConflictError, NotFoundError } from '../errors/requestErrors.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import type { ModelRegistry } from '../models/registry.js';
import type { StoredObject } from '../models/storedObject.js';
import type { AuditLog } from './AuditLog.js';

/** What one object went through in the reverted request: its state before and after it. */
interface NetChange {
  type: string;
  id: number;
  repr: string;
  /** Stored form before the request's first change of it (null: the request created it). */
  before: Record<string, unknown> | null;
  /** Stored form after the request's last change of it (null: the request deleted it). */
  after: Record<string, unknown> | null;
  /** Position of the request's last event on the object. */
  last: number;
  /** Position of the request's first event on the object. */
  first: number;
}

/**
 * Reverts a request: one new atomic request (its own id, `context.requestId`) that
 * takes every object the target request touched back to its state before it, each
 * event marked `revertOf: <target>`. Objects are handled newest change first, so a
 * cascade's parents are recreated before their children and a request's new children
 * are deleted before their parents.
 *
 * Refused as a whole (409, ConflictError with the reason) when a later change
 * conflicts: an object changed or deleted since, an object to recreate that exists
 * again, a restored state that would break a uniqueness rule or refer to an object
 * that no longer exists, or an object to delete that others refer to now. The checks
 * run inside the writer's decision, so nothing can slip in between check and write.
 */
export async function revertRequest(
  deps: {
    registry: ModelRegistry;
    coordinator: WriteCoordinator;
    audit: AuditLog;
    /** Types without a registry definition restored as they were (no rules to check: see AuditServiceOptions). */
    unregistered?: ReadonlySet<string>;
  },
  target: string,
  context: WriteContext,
): Promise<ChangeEvent[]> {
  const { registry, coordinator, audit } = deps;
  await audit.sync();
  const positions = audit.index.requestPositions(target);
  if (positions.length === 0) throw new NotFoundError();
  const nets = netChanges(await audit.events(positions));
  const refuse = (reason: string) => new ConflictError(`Cannot revert request ${target}: ${reason}`);

  // Objects the revert deletes may refer to each other (an interface and its cable): neither keeps the other.
  const deleting = new Set(nets.filter((n) => n.before === null && n.after !== null).map((n) => `${n.type}:${n.id}`));
  const { events } = await coordinator.execute(context, async (tx) => {
    for (const net of nets) {
      if (net.before === null && net.after === null) continue; // created and deleted by the request itself
      const definition = registry.tryGet(net.type);
      const label = `${net.type} ${net.id} (${net.repr})`;
      if (!definition && !deps.unregistered?.has(net.type))
        throw refuse(`${label}: the model ${net.type} no longer exists.`);
      const current = await tx.view.get(net.type, net.id);
      if (net.after !== null) {
        if (!current) throw refuse(`${label} was deleted since.`);
        const pos = (current as { _pos?: number })._pos;
        if (pos !== net.last) {
          const by = pos !== undefined && pos >= 1 && pos <= audit.head ? audit.index.requestIdAt(pos) : null;
          if (by && audit.index.revertsOf(target).includes(by))
            throw refuse(`it was already reverted by request ${by}.`);
          throw refuse(`${label} was changed since${changedBy(audit, pos)}.`);
        }
      } else if (current) {
        throw refuse(`${label} exists again.`);
      }

      let event: ChangeEvent;
      if (net.before === null) {
        if (definition) await assertUnreferenced(registry, tx, definition, net.id, label, refuse, deleting);
        event = tx.record({
          action: 'delete',
          objectType: net.type,
          objectId: net.id,
          objectRepr: String(current!.display ?? net.repr),
          prechange: storedForm(current!),
          postchange: null,
          related: definition?.hooks?.relatedObject?.(storedForm(current!)) ?? null,
        });
      } else {
        const restored: StoredObject = { ...structuredClone(net.before), id: net.id, last_updated: tx.time };
        if (definition) {
          await assertReferencesExist(registry, tx, definition, restored, label, refuse);
          const unique = await checkUniqueness(tx.view, definition, restored);
          const messages = Object.values(unique).flat();
          if (messages.length > 0)
            throw refuse(`restoring ${label} would break a uniqueness rule: ${messages.join(' ')}`);
        }
        const repr = definition ? (await displayOf(definition, restored, tx.view)).slice(0, 200) : net.repr;
        event = tx.record({
          action: current ? 'update' : 'create',
          objectType: net.type,
          objectId: net.id,
          objectRepr: repr,
          prechange: current ? storedForm(current) : null,
          postchange: restored,
          related: definition?.hooks?.relatedObject?.(restored) ?? null,
        });
      }
      // Additive envelope field (v2): links the revert's events to the request they undo.
      event.revertOf = target;
    }
  });
  return events;
}

/**
 * Per object, its state before and after the request, newest first: an object the request
 * created by its creation (what was created after it, and may refer to it, goes first, even
 * when the request changed it again later: a merged branch's interface gets its cable after
 * the cable's terminations), any other by the request's last change of it.
 */
function netChanges(events: readonly ChangeEvent[]): NetChange[] {
  const nets = new Map<string, NetChange>();
  for (const e of events) {
    const key = `${e.objectType}:${e.objectId}`;
    const net = nets.get(key);
    if (!net) {
      nets.set(key, {
        type: e.objectType,
        id: e.objectId,
        repr: e.objectRepr,
        before: e.prechange,
        after: e.postchange,
        last: e.position,
        first: e.position,
      });
    } else {
      net.after = e.postchange;
      net.last = e.position;
      net.repr = e.objectRepr;
    }
  }
  const order = (net: NetChange) => (net.before === null ? net.first : net.last);
  return [...nets.values()].sort((a, b) => order(b) - order(a));
}

function changedBy(audit: AuditLog, position: number | undefined): string {
  if (position === undefined) return '';
  if (position >= 1 && position <= audit.head)
    return ` (by request ${audit.index.requestIdAt(position)}, log position ${position})`;
  return ` (log position ${position})`;
}

import type { ChangeEvent } from '../events/ChangeEvent.js';
import type { ModelRegistry } from '../models/registry.js';
import type { DocumentChange, ReadDocument } from './ReadStore.js';

/**
 * The projection: the read-model document an event leaves behind. The same function
 * serves the projector and the writer's view of staged, not yet projected changes,
 * so both always agree on what an object looks like.
 */
export function evolve(registry: ModelRegistry, event: ChangeEvent): DocumentChange {
  if (event.action === 'delete' || event.postchange === null) {
    return { collection: event.objectType, id: event.objectId, position: event.position, doc: null };
  }
  const definition = registry.tryGet(event.objectType);
  const stored = { ...event.postchange, id: event.objectId };
  const derived = definition?.hooks?.derive?.(stored) ?? {};
  const doc: ReadDocument = {
    ...stored,
    ...derived,
    display: event.objectRepr,
    _pos: event.position,
  };
  return { collection: event.objectType, id: event.objectId, position: event.position, doc };
}

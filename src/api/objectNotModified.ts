/**
 * Conditional GET on one object. Its entity tag is its version (the log position that
 * last wrote it: the tag If-Match takes), but its rendering also shows related objects,
 * counts, custom fields and the like. So the tag alone does not prove the client's copy
 * current: 304 only when nothing the rendering read (the collections the render cache
 * recorded for it) has changed since that version, and this process has seen every
 * change since (it had started before the version was written). Otherwise the object is sent again.
 */
import { etagOf } from './conditionalWrite.js';
import { ifNoneMatchHolds } from './listEtag.js';

export interface ChangeHistory {
  /** Where this process's knowledge of changes begins. */
  readonly startPosition: number;
  changedAt(collection: string): number;
}

export function objectNotModified(
  ifNoneMatch: string,
  version: number,
  dependencies: readonly string[] | undefined,
  history: ChangeHistory,
): boolean {
  if (!ifNoneMatch || dependencies === undefined || version <= history.startPosition) return false;
  if (!ifNoneMatchHolds(ifNoneMatch, etagOf(version))) return false;
  return dependencies.every((collection) => history.changedAt(collection) <= version);
}

/**
 * A source's change log (`/api/extras/object-changes/`) as the past of the imported
 * objects. NetBox prunes its change log (CHANGELOG_RETENTION), so an object's recorded
 * history may begin with an update or a delete: such an object is given a baseline, a
 * synthetic creation holding the state before its first recorded change (that change's
 * prechange_data), dated at its `created` time (or the first change's, if later), under
 * one request id of the migration's own and no user. Before the baseline the object did
 * not exist as far as netledger knows; objects with no recorded change at all begin at
 * the import itself. See README, "Moving from NetBox".
 */
import { randomUUID } from 'node:crypto';

import type { PastChange } from '../commands/importHistory.js';
import type { ChangeAction } from '../events/ChangeEvent.js';
import type { ModelRegistry } from '../models/registry.js';
import type { StoredObject } from '../models/storedObject.js';

const ACTIONS = new Set(['create', 'update', 'delete']);

/**
 * The changes as netledger records them, oldest first, with baselines where an object's
 * history is incomplete. `tagIds` maps tag names to ids (change data lists tags by name);
 * tags deleted since are found by their own changes in the log.
 * Changes of models this registry does not know are left out (counted in `skipped`).
 */
export function pastChangesOf(
  registry: ModelRegistry,
  sourceChanges: ReadonlyArray<Record<string, unknown>>,
  tagIds: ReadonlyMap<string, number>,
  /** NetBox's snapshots hold content types by their row id: id → '<app>.<model>' (/api/extras/content-types/). */
  contentTypes: ReadonlyMap<number, string> = new Map(),
): { changes: PastChange[]; baselines: number; skipped: number } {
  const changes: PastChange[] = [];
  let skipped = 0;
  const tagIdsThen = withPastTags(tagIds, sourceChanges);
  const ordered = [...sourceChanges].sort(
    (a, b) => compareTime(String(a.time), String(b.time)) || Number(a.id) - Number(b.id),
  );
  for (const source of ordered) {
    const change = pastChangeOf(registry, source, tagIdsThen, contentTypes);
    if (change) changes.push(change);
    else skipped++;
  }
  const baselineRequest = randomUUID();
  const seen = new Set<string>();
  const baselines: PastChange[] = [];
  for (const change of changes) {
    const key = `${change.objectType}:${change.objectId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (change.action === 'create' || !change.prechange) continue;
    baselines.push({
      time: baselineTime(change.prechange.created, change.time),
      requestId: baselineRequest,
      user: null,
      action: 'create',
      objectType: change.objectType,
      objectId: change.objectId,
      objectRepr: change.objectRepr,
      prechange: null,
      postchange: change.prechange,
      related: change.related,
    });
  }
  // Baselines first: at equal times the stable sort keeps them before the change they precede.
  const all = [...baselines, ...changes].sort((a, b) => compareTime(a.time, b.time));
  return { changes: all, baselines: baselines.length, skipped };
}

function pastChangeOf(
  registry: ModelRegistry,
  source: Record<string, unknown>,
  tagIds: ReadonlyMap<string, number>,
  contentTypes: ReadonlyMap<number, string>,
): PastChange | null {
  const objectType = String(source.changed_object_type ?? '');
  const definition = registry.tryGet(objectType);
  const action = String((source.action as { value?: unknown } | null)?.value ?? source.action);
  if (!definition || !ACTIONS.has(action)) return null;
  const tagFields = definition.fields.filter((f) => f.type === 'tags').map((f) => f.name);
  const typeFields = definition.fields
    .filter((f) => f.type === 'content_type' || (f.type === 'array' && f.items === 'content_type'))
    .map((f) => f.name);
  const typeName = (value: unknown) => (typeof value === 'number' ? (contentTypes.get(value) ?? value) : value);
  const objectId = Number(source.changed_object_id);
  const snapshot = (data: unknown): StoredObject | null => {
    if (!data || typeof data !== 'object') return null;
    const stored: Record<string, unknown> = { ...(data as Record<string, unknown>), id: objectId };
    for (const name of tagFields) {
      if (Array.isArray(stored[name]))
        stored[name] = (stored[name] as unknown[]).flatMap((tag) => tagIdOf(tag, tagIds));
    }
    for (const name of typeFields) {
      const value = stored[name];
      stored[name] = Array.isArray(value) ? value.map(typeName) : typeName(value);
    }
    return stored as StoredObject;
  };
  const user = source.user as { id?: unknown; username?: unknown } | null;
  const relatedType = source.related_object_type;
  const relatedId = source.related_object_id;
  return {
    time: eventTime(String(source.time)),
    requestId: String(source.request_id),
    user:
      user && typeof user.id === 'number'
        ? { id: user.id, username: String(source.user_name ?? user.username ?? '') }
        : null,
    action: action as ChangeAction,
    objectType,
    objectId,
    objectRepr: objectReprOf(source, definition.verboseName, action),
    prechange: snapshot(source.prechange_data),
    postchange: snapshot(source.postchange_data),
    related:
      typeof relatedType === 'string' && typeof relatedId === 'number' ? { type: relatedType, id: relatedId } : null,
  };
}

/**
 * The object's string form at the change. NetBox 3.4's API does not serve object_repr:
 * it is taken from the change's display, `<app> | <model> <repr> <action>d by <user>`.
 */
function objectReprOf(source: Record<string, unknown>, verboseName: string, action: string): string {
  if (typeof source.object_repr === 'string') return source.object_repr;
  let display = typeof source.display === 'string' ? source.display : '';
  const suffix = ` ${action === 'create' ? 'created' : action === 'update' ? 'updated' : 'deleted'} by ${String(source.user_name ?? '')}`;
  if (display.endsWith(suffix)) display = display.slice(0, -suffix.length);
  const [app] = String(source.changed_object_type).split('.');
  const prefix = `${app} | ${verboseName} `;
  if (display.startsWith(prefix)) return display.slice(prefix.length);
  const changed = source.changed_object as { display?: unknown } | null;
  return typeof changed?.display === 'string' ? changed.display : display;
}

/**
 * The tags' ids by name: the source's tags, and those its change log saw that are gone
 * since (a snapshot may list a tag deleted later). A name a current tag holds stays its.
 */
function withPastTags(
  tagIds: ReadonlyMap<string, number>,
  sourceChanges: ReadonlyArray<Record<string, unknown>>,
): ReadonlyMap<string, number> {
  const all = new Map(tagIds);
  for (const change of sourceChanges) {
    if (change.changed_object_type !== 'extras.tag') continue;
    for (const data of [change.prechange_data, change.postchange_data]) {
      const name = (data as { name?: unknown } | null)?.name;
      if (typeof name === 'string' && !all.has(name)) all.set(name, Number(change.changed_object_id));
    }
  }
  return all;
}

function tagIdOf(tag: unknown, tagIds: ReadonlyMap<string, number>): number[] {
  if (typeof tag === 'number') return [tag];
  const id = typeof tag === 'string' ? tagIds.get(tag) : undefined;
  return id === undefined ? [] : [id];
}

/** An ISO 8601 time in the event log's form: UTC with microseconds. */
export function eventTime(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(value)) return value;
  const micro = /\.(\d{4,6})/.exec(value)?.[1]?.padEnd(6, '0').slice(3) ?? '000';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`not a time: ${value}`);
  return date.toISOString().replace(/Z$/, `${micro}Z`);
}

function baselineTime(created: unknown, first: string): string {
  if (typeof created !== 'string' || created === '') return first;
  try {
    const time = eventTime(created);
    return compareTime(time, first) <= 0 ? time : first;
  } catch {
    return first;
  }
}

function compareTime(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

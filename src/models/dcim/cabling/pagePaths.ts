/**
 * The cable paths and link peers of a page of cabled (or wirelessly linked) objects,
 * worked out once per response and shared by every column and nesting level that shows
 * them (link peers, connected endpoints, reachability, a nested interface's connection
 * status), through one reader of the objects on the way.
 */
import type { GenericListItem, RenderMemo } from '../../fieldDefinition.js';
import type { LookupView } from '../../lookupView.js';
import type { ModelDefinition } from '../../modelDefinition.js';
import type { StoredObject } from '../../storedObject.js';
import { type CablePath, pathFrom, PathReader, wirelessLinkId, wirelessPeerId } from './tracePath.js';

const READER = 'cabling:reader';

function readerOf(view: LookupView, memo: RenderMemo): PathReader {
  let reader = memo.get(READER) as PathReader | undefined;
  if (!reader) {
    reader = new PathReader(view);
    memo.set(READER, reader);
  }
  return reader;
}

function memoized<T>(memo: RenderMemo, key: string, work: () => Promise<T>): Promise<T> {
  let found = memo.get(key) as Promise<T> | undefined;
  if (!found) {
    found = work();
    memo.set(key, found);
  }
  return found;
}

const pathKey = (type: string, id: number) => `cabling:path:${type}:${id}`;

/** The interface at the other end of an interface's wireless link (none without one). */
async function wirelessPeers(reader: PathReader, obj: StoredObject): Promise<GenericListItem[]> {
  const id = wirelessLinkId(obj);
  if (id === null) return [];
  const link = await reader.get('wireless.wirelesslink', id);
  const peer = link ? wirelessPeerId(link, obj.id) : null;
  return peer === null ? [] : [{ object_type: 'dcim.interface', object_id: peer }];
}

/** The objects at the far end of each object's own cable (or an interface's wireless link). */
export function pagePeers(
  objs: StoredObject[],
  view: LookupView,
  model: ModelDefinition,
  memo: RenderMemo,
): Promise<GenericListItem[][]> {
  const reader = readerOf(view, memo);
  return Promise.all(
    objs.map((obj) =>
      memoized(memo, `cabling:peers:${model.key}:${obj.id}`, async () => {
        if (typeof obj.cable !== 'number') return wirelessPeers(reader, obj);
        const cable = await reader.get('dcim.cable', obj.cable);
        const far = obj.cable_end === 'B' ? 'a_terminations' : 'b_terminations';
        return ((cable?.[far] as GenericListItem[] | undefined) ?? []).map((i) => ({
          object_type: i.object_type,
          object_id: i.object_id,
        }));
      }),
    ),
  );
}

/** Each object's cable path (null without a cable). */
export function pagePaths(
  objs: StoredObject[],
  view: LookupView,
  model: ModelDefinition,
  memo: RenderMemo,
): Promise<Array<CablePath | null>> {
  const reader = readerOf(view, memo);
  return Promise.all(
    objs.map((obj) => memoized(memo, pathKey(model.key, obj.id), () => pathFrom(reader, model.key, obj))),
  );
}

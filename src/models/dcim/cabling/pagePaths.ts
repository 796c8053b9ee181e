/**
 * The cable paths of a page of endpoints, traced once per response and shared by every
 * column and nesting level that shows them (link peers, connected endpoints, reachability,
 * a nested interface's connection status), through one reader of the objects on the way.
 */
import type { GenericListItem, LookupView, ModelDefinition, RenderMemo, StoredObject } from '../../types.js';
import { type CablePath, PathReader, pathFrom } from './tracePath.js';

export interface EndpointState {
  path: CablePath | null;
  /** The objects at the far end of the endpoint's own cable. */
  peers: GenericListItem[];
}

const READER = 'cabling:reader';

export function pagePaths(objs: StoredObject[], view: LookupView, model: ModelDefinition, withPath: boolean, memo: RenderMemo): Promise<EndpointState[]> {
  let reader = memo.get(READER) as PathReader | undefined;
  if (!reader) {
    reader = new PathReader(view);
    memo.set(READER, reader);
  }
  return Promise.all(
    objs.map((obj) => {
      const key = `cabling:${withPath ? 'path' : 'peers'}:${model.key}:${obj.id}`;
      let state = memo.get(key) as Promise<EndpointState> | undefined;
      if (!state) {
        state = endpointState(reader!, model.key, obj, withPath);
        memo.set(key, state);
      }
      return state;
    }),
  );
}

async function endpointState(reader: PathReader, type: string, obj: StoredObject, withPath: boolean): Promise<EndpointState> {
  if (typeof obj.cable !== 'number') return { path: null, peers: [] };
  const cable = await reader.get('dcim.cable', obj.cable);
  const far = obj.cable_end === 'B' ? 'a_terminations' : 'b_terminations';
  const peers = ((cable?.[far] as GenericListItem[] | undefined) ?? []).map((i) => ({ object_type: i.object_type, object_id: i.object_id }));
  return { path: withPath ? await pathFrom(reader, type, obj) : null, peers };
}

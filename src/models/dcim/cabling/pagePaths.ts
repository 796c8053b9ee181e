/**
 * The cable paths of a page of endpoints, traced once and shared by every column that
 * shows them (link peers, connected endpoints, reachability, connection status).
 */
import type { GenericListItem, LookupView, ModelDefinition, StoredObject } from '../../types.js';
import { type CablePath, PathReader, pathFrom } from './tracePath.js';

export interface EndpointState {
  path: CablePath | null;
  /** The objects at the far end of the endpoint's own cable. */
  peers: GenericListItem[];
}

/** Per page: the peers alone, or the peers and paths (link peers alone need no trace). */
const traced = { peers: new WeakMap<StoredObject[], Promise<EndpointState[]>>(), paths: new WeakMap<StoredObject[], Promise<EndpointState[]>>() };

export function pagePaths(objs: StoredObject[], view: LookupView, model: ModelDefinition, withPath: boolean): Promise<EndpointState[]> {
  const cache = withPath ? traced.paths : traced.peers;
  let states = cache.get(objs);
  if (!states) {
    const reader = new PathReader(view);
    states = Promise.all(objs.map((obj) => endpointState(reader, model.key, obj, withPath)));
    cache.set(objs, states);
  }
  return states;
}

async function endpointState(reader: PathReader, type: string, obj: StoredObject, withPath: boolean): Promise<EndpointState> {
  if (typeof obj.cable !== 'number') return { path: null, peers: [] };
  const cable = await reader.get('dcim.cable', obj.cable);
  const far = obj.cable_end === 'B' ? 'a_terminations' : 'b_terminations';
  const peers = ((cable?.[far] as GenericListItem[] | undefined) ?? []).map((i) => ({ object_type: i.object_type, object_id: i.object_id }));
  return { path: withPath ? await pathFrom(reader, type, obj) : null, peers };
}

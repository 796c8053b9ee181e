/**
 * Counts over a tree (NetBox's add_related_count with cumulative=True): a node counts the
 * objects assigned to it and to every node below it.
 */
import type { FieldDefinition } from './fieldDefinition.js';
import type { LookupView } from './lookupView.js';
import type { StoredObject } from './storedObject.js';

/** Deepest tree walked; deeper nodes are left out of their ancestors' counts. */
const MAX_TREE_DEPTH = 64;

/** Each node of `nodes` with the ids of its subtree (itself included), from one read of the tree. */
async function subtrees(treeModel: string, nodes: StoredObject[], view: LookupView): Promise<number[][]> {
  const all = await view.find(treeModel, {});
  const children = new Map<number, number[]>();
  for (const node of all) {
    if (typeof node.parent !== 'number') continue;
    const siblings = children.get(node.parent) ?? [];
    siblings.push(node.id);
    children.set(node.parent, siblings);
  }
  return nodes.map((node) => {
    const ids = [node.id];
    let level = [node.id];
    for (let depth = 0; level.length && depth < MAX_TREE_DEPTH; depth++) {
      level = level.flatMap((id) => children.get(id) ?? []);
      ids.push(...level);
    }
    return ids;
  });
}

/**
 * An annotated count of the `model` objects whose `via` names the node or one of its
 * descendants (absent from nested forms, as NetBox's annotations are).
 */
export function cumulativeCountField(name: string, treeModel: string, model: string, via: string): FieldDefinition {
  return {
    name,
    type: 'computed',
    readOnly: true,
    annotated: true,
    value: 0,
    dependsOn: [model],
    computeMany: async (nodes, view) => {
      if (nodes.length === 0) return [];
      const trees = await subtrees(treeModel, nodes, view);
      const counted = await view.find(model, { [via]: { $in: [...new Set(trees.flat())] } });
      const perNode = new Map<number, number>();
      for (const obj of counted)
        if (typeof obj[via] === 'number') perNode.set(obj[via] as number, (perNode.get(obj[via] as number) ?? 0) + 1);
      return trees.map((ids) => ids.reduce((sum, id) => sum + (perNode.get(id) ?? 0), 0));
    },
  };
}

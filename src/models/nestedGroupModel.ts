/**
 * NetBox's nested groups (regions, site groups, tenant groups ...): a tree of named nodes
 * with a slug, a description, tags and custom fields, counts of the objects assigned to a
 * node, and the node's depth.
 */
import {
  changeLoggedFields,
  depthField,
  descriptionField,
  identityFields,
  parentField,
  scopedSlugField,
  siblingUnique,
  slugField,
  uniqueNameField,
} from './commonFields.js';
import type { FieldDefinition } from './fieldDefinition.js';
import { treeNodeHooks } from './hooks.js';
import type { ModelDefinition } from './modelDefinition.js';
import { modelNames } from './modelNames.js';

export interface NestedGroupModelSpec extends Partial<
  Omit<ModelDefinition, 'key' | 'path' | 'verboseName' | 'fields'>
> {
  /** '<app>.<model>'; the URL app is the key's app unless `app` says otherwise. */
  key: string;
  /** URL segment of the list view, e.g. 'regions'. */
  path: string;
  verboseName: string;
  /** Names and slugs are unique among siblings (and among top-level nodes) rather than globally. */
  uniqueAmongSiblings?: boolean;
  /** Count fields, rendered before the depth and in the brief form. */
  counts?: FieldDefinition[];
}

/**
 * The definition of a nested group. Anything a ModelDefinition says may be given to replace
 * the defaults: ordered by name (NetBox lists trees depth-first, by tree_id and lft), searched
 * by name and slug, a parent that is not the node or one of its descendants.
 */
export function nestedGroupModel(spec: NestedGroupModelSpec): ModelDefinition {
  const { key, path, verboseName, uniqueAmongSiblings = false, counts = [], ...rest } = spec;
  const name: FieldDefinition = uniqueAmongSiblings
    ? { name: 'name', type: 'string', required: true, maxLength: 100 }
    : uniqueNameField();
  return {
    ...modelNames(key, path, verboseName),
    fields: [
      ...identityFields,
      name,
      uniqueAmongSiblings ? scopedSlugField : slugField,
      parentField(key),
      descriptionField,
      ...changeLoggedFields,
      ...counts,
      depthField,
    ],
    brief: ['id', 'url', 'display', 'name', 'slug', ...counts.map((f) => f.name), '_depth'],
    ordering: ['name', 'id'],
    ...(uniqueAmongSiblings ? { unique: siblingUnique(verboseName) } : {}),
    search: ['name', 'slug'],
    hooks: treeNodeHooks(key, verboseName),
    ...rest,
  };
}

/**
 * NetBox's organizational models (roles, types, manufacturers, RIRs ...): a unique name
 * and slug, a description, tags and custom fields, and counts of the objects that use
 * them. A simple one is its key, its URL segment and its verbose name.
 */
import { changeLoggedFields, descriptionField, identityFields, slugField, uniqueNameField } from './commonFields.js';
import type { FieldDefinition } from './fieldDefinition.js';
import type { ModelDefinition } from './modelDefinition.js';
import { modelNames } from './modelNames.js';

export interface OrganizationalModelSpec extends Partial<
  Omit<ModelDefinition, 'key' | 'path' | 'verboseName' | 'fields'>
> {
  /** '<app>.<model>'; the URL app is the key's app unless `app` says otherwise. */
  key: string;
  /** URL segment of the list view, e.g. 'rack-roles'. */
  path: string;
  verboseName: string;
  /** Fields of its own, between slug and description, in serializer order. */
  fields?: FieldDefinition[];
  /** Count fields, rendered last (see countField). */
  counts?: FieldDefinition[];
}

/**
 * The definition of an organizational model. Anything a ModelDefinition says may be given
 * to replace the defaults: brief form id/url/display/name/slug, ordered by name, searched
 * by name and slug (display, ordering fields and uniqueness follow from the fields).
 */
export function organizationalModel(spec: OrganizationalModelSpec): ModelDefinition {
  const { key, path, verboseName, fields = [], counts = [], ...rest } = spec;
  return {
    ...modelNames(key, path, verboseName),
    fields: [
      ...identityFields,
      uniqueNameField(),
      slugField,
      ...fields,
      descriptionField,
      ...changeLoggedFields,
      ...counts,
    ],
    brief: ['id', 'url', 'display', 'name', 'slug'],
    ordering: ['name', 'id'],
    search: ['name', 'slug'],
    ...rest,
  };
}

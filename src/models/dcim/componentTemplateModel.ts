/**
 * NetBox's component templates: what a device type (or module type) says its devices (or
 * modules) are built with, instantiated as components when one is created
 * (src/models/componentTemplates.ts). A name unique on the type and a label, a description
 * and timestamps; ordered by type and natural name, found by name.
 */
import { descriptionField, identityFields } from '../commonFields.js';
import { nameWithLabel } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { modelNames } from '../modelNames.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import {
  componentNameField,
  deviceTypeField,
  labelField,
  modularTemplateOwnerFields,
  templateTimestampFields,
} from './componentFields.js';
import { deviceTypeTemplateFilters, modularTemplateFilters } from './componentFilters.js';
import { modularTemplateParentProblem, templateMoveProblem, templateParent } from './componentParents.js';
import type { ComponentSpec } from './componentSpec.js';

export interface ComponentTemplateSpec extends ComponentSpec {
  /**
   * A module type can have it too (NetBox's ModularComponentTemplateModel): it belongs to
   * exactly one of a device type and a module type; otherwise to a device type, required.
   */
  modular?: boolean;
}

/**
 * The definition of a component template. Anything a ModelDefinition says may be given to
 * replace the defaults: brief form id/url/display/name, ordered by type and natural name,
 * names unique on each type, searched by name.
 */
export function componentTemplateModel(spec: ComponentTemplateSpec): ModelDefinition {
  const {
    key,
    path,
    verboseName,
    modular = false,
    beforeName = [],
    fields = [],
    afterDescription = [],
    last = [],
    filters = {},
    rule,
    hooks = {},
    ...rest
  } = spec;
  const shared = modular ? modularTemplateParentProblem : templateMoveProblem;
  return {
    ...modelNames(key, path, verboseName),
    fields: [
      ...identityFields,
      ...(modular ? modularTemplateOwnerFields : [deviceTypeField]),
      ...beforeName,
      componentNameField,
      labelField,
      ...fields,
      descriptionField,
      ...afterDescription,
      ...templateTimestampFields,
      ...last,
    ],
    brief: ['id', 'url', 'display', 'name'],
    // NetBox orders device_type and module_type by their own ordering; here by id
    ordering: modular ? ['device_type', 'module_type', '_name', 'id'] : ['device_type', '_name', 'id'],
    search: ['name'],
    unique: modular
      ? [{ fields: ['device_type', 'name'] }, { fields: ['module_type', 'name'] }]
      : [{ fields: ['device_type', 'name'] }],
    filters: { ...(modular ? modularTemplateFilters : deviceTypeTemplateFilters), ...filters },
    ...rest,
    hooks: {
      display: nameWithLabel,
      derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
      validate: async (obj, view, previous, context) =>
        shared(obj, previous) ?? (await rule?.(obj, view, previous, context)),
      relatedObject: templateParent,
      ...hooks,
    },
  };
}

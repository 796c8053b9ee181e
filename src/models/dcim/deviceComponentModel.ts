/**
 * NetBox's device components (console, power and network ports, outlets, bays, inventory
 * items): a device, a name unique on it and a label, a description, tags and custom
 * fields; ordered and found by device and name; and, when cabled, a cable, what is at
 * its far end and a trace. What differs between them is their own fields and rules.
 */
import { changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import type { FieldDefinition } from '../fieldDefinition.js';
import { nameWithLabel } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { modelNames } from '../modelNames.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { cabledObjectFilters, pathEndpointFilters } from './cabledObjectFilters.js';
import { cableEndFields, occupiedField, pathEndpointFields } from './cableFields.js';
import { pathsView, traceView } from './cabling/traceViews.js';
import { componentNameField, deviceField, labelField, markConnectedField, moduleField } from './componentFields.js';
import { deviceScopeFilters } from './componentFilters.js';
import { componentMoveProblem, deviceParent, markedWhileCabledProblem } from './componentParents.js';
import type { ComponentSpec } from './componentSpec.js';

export interface DeviceComponentSpec extends ComponentSpec {
  /**
   * 'endpoint': cabled, and a cable path ends here (NetBox's PathEndpoint: console, power and
   * network ports); 'pass-through': cabled, paths run through (front and rear ports); absent:
   * never cabled (bays, inventory items).
   */
  cabling?: 'endpoint' | 'pass-through';
  /** A module of the device can hold it (NetBox's ModularComponentModel): a `module` field after the device. */
  modular?: boolean;
  /** Fields of its own between the name and the label. */
  afterName?: FieldDefinition[];
  /**
   * Replaces the cable's fields of a cabled component (marked connected, the cable, its far
   * end and the path's) for one linked otherwise too (an interface's wireless link).
   */
  cableFields?: FieldDefinition[];
}

/**
 * The definition of a device component. Anything a ModelDefinition says may be given to
 * replace the defaults: brief form with the device (and the cable when cabled), ordered by
 * device and natural name, unique name on the device, searched by name, label and description.
 */
export function deviceComponentModel(spec: DeviceComponentSpec): ModelDefinition {
  const {
    key,
    path,
    verboseName,
    cabling,
    modular = false,
    beforeName = [],
    afterName = [],
    fields = [],
    afterDescription = [],
    cableFields,
    last = [],
    filters = {},
    rule,
    hooks = {},
    ...rest
  } = spec;
  const cabled = cabling !== undefined;
  const endpoint = cabling === 'endpoint';
  return {
    ...modelNames(key, path, verboseName),
    fields: [
      ...identityFields,
      deviceField,
      ...beforeName,
      ...(modular ? [moduleField] : []),
      componentNameField,
      ...afterName,
      labelField,
      ...fields,
      descriptionField,
      ...afterDescription,
      ...(cableFields ?? [
        ...(cabled ? [markConnectedField, ...cableEndFields] : []),
        ...(endpoint ? pathEndpointFields : []),
      ]),
      ...changeLoggedFields,
      ...last,
      ...(cabled ? [occupiedField] : []),
    ],
    brief: cabled
      ? ['id', 'url', 'display', 'device', 'name', 'cable', '_occupied']
      : ['id', 'url', 'display', 'device', 'name'],
    // NetBox orders device by its own ordering; here by id
    ordering: ['device', '_name', 'id'],
    search: ['name', 'label', 'description'],
    unique: [{ fields: ['device', 'name'] }],
    // In this order, the order of the filter set (GraphQL's arguments, the browsable API's filters):
    // where the device is, the model's own, then the cable's
    filters: {
      ...deviceScopeFilters,
      ...filters,
      ...(cabled ? cabledObjectFilters : {}),
      // NetBox 3.4 filters no port by mark_connected: endpoints drop the derived filter, pass-through ports keep it
      ...(endpoint ? { ...pathEndpointFilters, mark_connected: false } : {}),
    },
    ...(cabled ? { detailViews: [endpoint ? traceView : pathsView] } : {}),
    ...rest,
    hooks: {
      display: nameWithLabel,
      derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
      validate: async (obj, view, previous, context) =>
        componentMoveProblem(obj, previous) ??
        (cabled ? markedWhileCabledProblem(obj) : undefined) ??
        (await rule?.(obj, view, previous, context)),
      relatedObject: deviceParent,
      ...hooks,
    },
  };
}

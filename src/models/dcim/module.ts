// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { assetTagField, changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import { componentInput, instantiateTemplates, MODULE_TOKEN, templatePairs } from '../componentTemplates.js';
import type { FollowUpCommand } from '../compositeWrites.js';
import { BEYOND_NETBOX, pairFilters } from '../filterSpecs.js';
import { fieldError, nameOf, pyStr, related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { ModelCatalog } from '../modelCatalog.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { ValidationContext } from '../modelHooks.js';
import { relatedNameContains } from '../searchRelatedName.js';
import type { StoredObject } from '../storedObject.js';
import { MODULE_STATUS_CHOICES } from './choices.js';
import { deviceDisplay } from './device.js';

export const module: ModelDefinition = {
  key: 'dcim.module',
  app: 'dcim',
  model: 'module',
  path: 'modules',
  verboseName: 'module',
  verboseNamePlural: 'modules',
  fields: [
    ...identityFields,
    { name: 'device', type: 'fk', target: 'dcim.device', onDelete: 'CASCADE', required: true },
    {
      name: 'module_bay',
      type: 'fk',
      target: 'dcim.modulebay',
      onDelete: 'CASCADE',
      oneToOne: true,
      required: true,
      unique: true,
    },
    {
      name: 'module_type',
      type: 'fk',
      target: 'dcim.moduletype',
      onDelete: 'PROTECT',
      required: true,
      relatedName: 'instances',
    },
    {
      name: 'status',
      type: 'choice',
      default: 'active',
      choices: MODULE_STATUS_CHOICES,
    },
    { name: 'serial', type: 'string', blank: true, default: '', maxLength: 50 },
    assetTagField,
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
    // NetBox's module forms offer these two on install; accepted here on create, never rendered.
    { name: 'replicate_components', type: 'boolean', writeOnly: true, default: true },
    { name: 'adopt_components', type: 'boolean', writeOnly: true, default: false },
  ],
  displayReads: ['dcim.modulebay', 'dcim.moduletype'],
  brief: ['id', 'url', 'display', 'device', 'module_bay', 'module_type'],
  // NetBox orders module_bay by its own ordering; here by id
  ordering: ['module_bay', 'id'],
  search: ['serial', 'asset_tag', 'comments'],
  filters: {
    // NetBox 3.4: module_bay_id only
    module_bay: BEYOND_NETBOX,
    ...pairFilters('manufacturer_id', 'manufacturer', 'dcim.manufacturer', ['module_type', 'manufacturer']),
    module_type: { kind: 'related', target: 'dcim.moduletype', by: 'model', path: ['module_type'] },
    device: false,
    q: { kind: 'search', also: relatedNameContains('dcim.device', 'device') },
  },
  hooks: {
    display: async (obj, view) => {
      const bay = await related(view, 'dcim.modulebay', obj.module_bay);
      const type = await related(view, 'dcim.moduletype', obj.module_type);
      return `${nameOf(bay)}: ${pyStr(type?.model)} (${obj.id})`;
    },
    validate: validateModule,
    followUps: ({ action, obj }, view, models) => (action === 'create' ? installComponents(obj, view, models) : []),
  },
};

/** The bay must be on the module's device; a new module's templates must fit the device (NetBox's install form). */
async function validateModule(
  obj: StoredObject,
  view: LookupView,
  previous: StoredObject | null,
  context?: ValidationContext,
): Promise<FieldErrors | void> {
  const bay = await related(view, 'dcim.modulebay', obj.module_bay);
  if (bay && bay.device !== obj.device) {
    const device = await related(view, 'dcim.device', obj.device);
    const shown = device ? await deviceDisplay(device, view) : String(obj.device);
    return fieldError(
      '__all__',
      `Module must be installed within a module bay belonging to the assigned device (${shown}).`,
    );
  }
  if (previous || !bay || obj.replicate_components === false || !context) return;
  const registry = context.models;
  for (const pair of templatePairs('dcim.moduletype', 'module_type', registry)) {
    const templates = await view.find(pair.template.key, { module_type: obj.module_type });
    for (const template of templates) {
      if (String(template.name).includes(MODULE_TOKEN) && !bay.position) {
        return fieldError(
          '__all__',
          'Cannot install module with placeholder values in a module bay with no position defined',
        );
      }
      const name = componentInput(
        pair,
        template,
        new Map(),
        { device: Number(obj.device), module: { id: 0, position: String(bay.position ?? '') } },
        registry,
      ).name;
      const [existing] = await view.find(pair.component.key, { device: obj.device, name }, 1);
      if (!existing) continue;
      if (obj.adopt_components && existing.module != null) {
        return fieldError(
          '__all__',
          `Cannot adopt ${pair.component.verboseName} '${pyStr(name)}' as it already belongs to a module`,
        );
      }
      if (!obj.adopt_components)
        return fieldError('__all__', `${pair.component.verboseName} - ${pyStr(name)} already exists`);
    }
  }
}

/** A new module's device gets a component per template of the module's type, owned by the module. */
async function installComponents(
  obj: StoredObject,
  view: LookupView,
  models: ModelCatalog,
): Promise<FollowUpCommand[]> {
  const bay = await related(view, 'dcim.modulebay', obj.module_bay);
  const target = { device: Number(obj.device), module: { id: obj.id, position: String(bay?.position ?? '') } };
  return instantiateTemplates('dcim.moduletype', 'module_type', Number(obj.module_type), target, view, models, {
    adopt: obj.adopt_components === true,
    replicate: obj.replicate_components !== false,
  });
}

// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { changeLoggedFields, countField, descriptionField, identityFields } from '../commonFields.js';
import { contactFilters, siteScopeFilters } from '../filterSpecs.js';
import { pyStr, related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';

/** A panel's location is one of its site's. */
async function locationSiteProblem(obj: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  const location = await related(view, 'dcim.location', obj.location);
  if (!location || location.site === obj.site) return;
  const [locationSite, site] = await Promise.all([
    related(view, 'dcim.site', location.site),
    related(view, 'dcim.site', obj.site),
  ]);
  return {
    __all__: [
      `Location ${pyStr(location.name)} (${pyStr(locationSite?.name)}) is in a different site than ${pyStr(site?.name)}`,
    ],
  };
}

export const powerpanel: ModelDefinition = {
  key: 'dcim.powerpanel',
  app: 'dcim',
  model: 'powerpanel',
  path: 'power-panels',
  verboseName: 'power panel',
  verboseNamePlural: 'power panels',
  fields: [
    ...identityFields,
    {
      name: 'site',
      type: 'fk',
      target: 'dcim.site',
      onDelete: 'PROTECT',
      required: true,
      relatedName: 'powerpanel_set',
    },
    {
      name: 'location',
      type: 'fk',
      target: 'dcim.location',
      onDelete: 'PROTECT',
      nullable: true,
      default: null,
      relatedName: 'powerpanel_set',
    },
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    // NetBox shows the count between custom_fields and created.
    ...changeLoggedFields.slice(0, 2),
    countField('powerfeed_count', 'dcim.powerfeed', 'power_panel'),
    ...changeLoggedFields.slice(2),
  ],
  brief: ['id', 'url', 'display', 'name', 'powerfeed_count'],
  // NetBox orders site by its own ordering (natural name); here by id
  ordering: ['site', 'name', 'id'],
  search: ['name'],
  unique: [{ fields: ['site', 'name'] }],
  filters: {
    ...contactFilters,
    ...siteScopeFilters(['site']),
    location_id: { kind: 'related', target: 'dcim.location', path: ['location'], includeDescendants: true },
    // NetBox has no filter by location slug, nor by these text fields.
    location: false,
    description: false,
    comments: false,
  },
  hooks: {
    validate: (obj, view) => locationSiteProblem(obj, view),
  },
};

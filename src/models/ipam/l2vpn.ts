// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import {
  changeLoggedFields,
  descriptionField,
  identityFields,
  slugField,
  tenantField,
  uniqueNameField,
} from '../commonFields.js';
import { pairFilters, tenancyFilters } from '../filterSpecs.js';
import { fieldError, pyStr } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { L2VPN_TYPE_CHOICES } from './choices.js';

/** Types that join exactly two ends: an L2VPN of these takes at most two terminations. */
export const POINT_TO_POINT_TYPES = new Set(['vpws', 'epl', 'ep-lan', 'ep-tree']);

export const l2vpn: ModelDefinition = {
  key: 'ipam.l2vpn',
  app: 'ipam',
  model: 'l2vpn',
  path: 'l2vpns',
  verboseName: 'L2VPN',
  verboseNamePlural: 'L2VPNs',
  fields: [
    ...identityFields,
    {
      name: 'identifier',
      type: 'integer',
      nullable: true,
      default: null,
      min: -9223372036854776000,
      max: 9223372036854776000,
    },
    uniqueNameField(),
    slugField,
    // The serializer leaves the type optional; the model refuses a missing one (see validate).
    { name: 'type', type: 'choice', choices: L2VPN_TYPE_CHOICES },
    { name: 'import_targets', type: 'm2m', target: 'ipam.routetarget', default: [], relatedName: 'importing_l2vpns' },
    { name: 'export_targets', type: 'm2m', target: 'ipam.routetarget', default: [], relatedName: 'exporting_l2vpns' },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    tenantField,
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'identifier', 'name', 'slug', 'type'],
  ordering: ['name', 'identifier', 'id'],
  search: ['name', 'description'],
  filters: {
    ...tenancyFilters,
    ...pairFilters('import_target_id', 'import_target', 'ipam.routetarget', ['import_targets'], 'name'),
    ...pairFilters('export_target_id', 'export_target', 'ipam.routetarget', ['export_targets'], 'name'),
    import_targets_id: false,
    import_targets: false,
    export_targets_id: false,
    export_targets: false,
    comments: false,
    // NetBox: name or description contains the text, or the identifier equals it as a number
    q: {
      kind: 'search',
      fields: ['name', 'description'],
      also: ([text]) => (/^\s*[-+]?\d{1,18}\s*$/.test(String(text)) ? { identifier: Number(text) } : null),
    },
  },
  hooks: {
    async validate(obj) {
      if (obj.type === undefined || obj.type === null || obj.type === '')
        return fieldError('type', 'This field cannot be blank.');
    },
    // Python's truth test: an identifier of 0 is not shown
    display: (obj) => (obj.identifier ? `${pyStr(obj.name)} (${pyStr(obj.identifier)})` : pyStr(obj.name)),
  },
};

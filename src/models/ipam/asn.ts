// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, countField, descriptionField, identityFields, tenantField } from '../commonFields.js';
import { tenancyFilters } from '../filterSpecs.js';
import type { FilterMethod } from '../filterTypes.js';
import { listedBy } from '../listedByFilter.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';

/** 'AS<n>'; a number past 16 bits also in its asdot form, as NetBox shows it: 'AS4200000000 (64086.59904)'. */
export function asnDisplay(obj: StoredObject): string {
  const asn = Number(obj.asn);
  if (!Number.isInteger(asn) || asn <= 65535) return `AS${String(obj.asn)}`;
  return `AS${asn} (${Math.floor(asn / 65536)}.${asn % 65536})`;
}

/** `q` also matches the number itself when the text is one (NetBox: int() of the stripped text). */
const numberEquals: FilterMethod = ([text]) => {
  const trimmed = String(text).trim();
  if (!/^[-+]?\d+$/.test(trimmed)) return null;
  return { asn: Number(trimmed) };
};

export const asn: ModelDefinition = {
  key: 'ipam.asn',
  app: 'ipam',
  model: 'asn',
  path: 'asns',
  verboseName: 'ASN',
  verboseNamePlural: 'ASNs',
  fields: [
    ...identityFields,
    { name: 'asn', label: 'ASN', type: 'integer', required: true, unique: true, min: 1, max: 4294967295 },
    // NetBox 3.4 renders the RIR as its bare id here, unlike most foreign keys
    { name: 'rir', type: 'fk', target: 'ipam.rir', onDelete: 'PROTECT', representation: 'id', required: true },
    tenantField,
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
    // sites and providers hold the many-to-many fields that list ASNs
    countField('site_count', 'dcim.site', 'asns'),
    countField('provider_count', 'circuits.provider', 'asns'),
  ],
  brief: ['id', 'url', 'display', 'asn'],
  ordering: ['asn', 'id'],
  search: ['description'],
  filters: {
    ...tenancyFilters,
    site_id: listedBy('dcim.site', 'asns'),
    site: listedBy('dcim.site', 'asns', 'slug'),
    comments: false,
    q: { kind: 'search', fields: ['description'], also: numberEquals },
  },
  hooks: {
    display: asnDisplay,
  },
};

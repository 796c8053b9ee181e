/**
 * Which config contexts apply to an object: a context applies when, for every criterion
 * it lists objects under (its regions, sites, tags ...), the object's value for that
 * criterion is one of them; a criterion a context leaves empty does not restrict it.
 * A context scope says, per kind of object, where the object's value for each criterion
 * comes from.
 */

/** The criteria of a config context: its many-to-many fields, in the model's order. */
export const CRITERIA = [
  'regions',
  'site_groups',
  'sites',
  'locations',
  'device_types',
  'roles',
  'platforms',
  'cluster_types',
  'cluster_groups',
  'clusters',
  'tenant_groups',
  'tenants',
  'tags',
] as const;

export type Criterion = (typeof CRITERIA)[number];

/** One step from an object to a related one: the field holding the id (or list of ids) and the model it names. */
export type Hop = readonly [field: string, model: string];

/**
 * Where an object's value for a criterion comes from: the chain of foreign keys from the
 * object to it (the last hop names the criterion's model). With `ancestors`, the value's
 * ancestors in its tree (by `parent`) match too.
 */
export interface CriterionSource {
  hops: readonly Hop[];
  ancestors?: boolean;
}

/**
 * Per criterion: its source; `'none'` when objects of the kind never have a value (only
 * contexts that leave the criterion empty apply); `'ignored'` when the criterion is not
 * one for the kind (it never keeps a context from applying).
 */
export type ContextScope = Record<Criterion, CriterionSource | 'none' | 'ignored'>;

const tenancy = {
  tenant_groups: {
    hops: [
      ['tenant', 'tenancy.tenant'],
      ['group', 'tenancy.tenantgroup'],
    ],
  },
  tenants: { hops: [['tenant', 'tenancy.tenant']] },
} satisfies Partial<ContextScope>;

const clustering = {
  cluster_types: {
    hops: [
      ['cluster', 'virtualization.cluster'],
      ['type', 'virtualization.clustertype'],
    ],
  },
  cluster_groups: {
    hops: [
      ['cluster', 'virtualization.cluster'],
      ['group', 'virtualization.clustergroup'],
    ],
  },
  clusters: { hops: [['cluster', 'virtualization.cluster']] },
} satisfies Partial<ContextScope>;

/** Regions and site groups match the site's own and every one above it; the rest only the value itself. */
export const DEVICE_CONTEXT_SCOPE: ContextScope = {
  regions: {
    hops: [
      ['site', 'dcim.site'],
      ['region', 'dcim.region'],
    ],
    ancestors: true,
  },
  site_groups: {
    hops: [
      ['site', 'dcim.site'],
      ['group', 'dcim.sitegroup'],
    ],
    ancestors: true,
  },
  sites: { hops: [['site', 'dcim.site']] },
  locations: { hops: [['location', 'dcim.location']] },
  device_types: { hops: [['device_type', 'dcim.devicetype']] },
  roles: { hops: [['device_role', 'dcim.devicerole']] },
  platforms: { hops: [['platform', 'dcim.platform']] },
  ...clustering,
  ...tenancy,
  tags: { hops: [['tags', 'extras.tag']] },
};

/**
 * As NetBox 3.4 renders a virtual machine's context in its API: site, region and site
 * group are those of the VM's cluster (a VM without a cluster meets none), a VM has no
 * device type (contexts listing device types never apply) and locations are no
 * criterion for it.
 */
export const VIRTUAL_MACHINE_CONTEXT_SCOPE: ContextScope = {
  regions: {
    hops: [
      ['cluster', 'virtualization.cluster'],
      ['site', 'dcim.site'],
      ['region', 'dcim.region'],
    ],
    ancestors: true,
  },
  site_groups: {
    hops: [
      ['cluster', 'virtualization.cluster'],
      ['site', 'dcim.site'],
      ['group', 'dcim.sitegroup'],
    ],
    ancestors: true,
  },
  sites: {
    hops: [
      ['cluster', 'virtualization.cluster'],
      ['site', 'dcim.site'],
    ],
  },
  locations: 'ignored',
  device_types: 'none',
  roles: { hops: [['role', 'dcim.devicerole']] },
  platforms: { hops: [['platform', 'dcim.platform']] },
  ...clustering,
  ...tenancy,
  tags: { hops: [['tags', 'extras.tag']] },
};

/** Every model an object's criteria are read from. */
export function scopeModels(scope: ContextScope): string[] {
  const models = new Set<string>();
  for (const source of Object.values(scope)) {
    if (typeof source === 'object') for (const [, model] of source.hops) models.add(model);
  }
  return [...models];
}

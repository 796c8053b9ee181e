/**
 * The models that have contacts in NetBox 3.4 (a `contacts` generic relation): the content
 * types a contact assignment may name, and the models whose lists take the contact filters.
 */
export const CONTACT_MODELS: string[] = [
  'circuits.circuit',
  'circuits.provider',
  'dcim.device',
  'dcim.location',
  'dcim.manufacturer',
  'dcim.powerpanel',
  'dcim.rack',
  'dcim.region',
  'dcim.site',
  'dcim.sitegroup',
  'ipam.l2vpn',
  'tenancy.tenant',
  'virtualization.cluster',
  'virtualization.clustergroup',
  'virtualization.virtualmachine',
];

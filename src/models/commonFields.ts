/**
 * Field declarations that many models share word for word. A model lists them in
 * serializer order like any other field; only their spelling lives here.
 */
import { SITE_STATUS_CHOICES, WEIGHT_UNIT_CHOICES } from './dcim/choices.js';
import type { FieldDefinition } from './fieldDefinition.js';
import { IP_FAMILY_CHOICES } from './ipam/choices.js';
import type { UniqueConstraint } from './modelDefinition.js';

/** id, url, display: the first three keys of every representation. */
export const identityFields: FieldDefinition[] = [
  { name: 'id', type: 'id', readOnly: true },
  { name: 'url', type: 'url', readOnly: true },
  { name: 'display', type: 'display', readOnly: true },
];

/**
 * The object's string form under its NetBox 2.x name, kept where clients written for
 * that API read it (VLANs, nested devices): the same label as `display`.
 */
export const displayNameField: FieldDefinition = { name: 'display_name', type: 'display', readOnly: true };

/** tags, custom_fields, created, last_updated: what every change-logged model ends with. */
export const changeLoggedFields: FieldDefinition[] = [
  { name: 'tags', type: 'tags', target: 'extras.tag', default: [] },
  { name: 'custom_fields', type: 'custom_fields', default: {} },
  // A record's created reads as a date (YYYY-MM-DD); the stored value keeps the full timestamp.
  { name: 'created', type: 'date', readOnly: true, nullable: true },
  { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
];

/** A unique URL-friendly identifier: letters, digits, hyphens and underscores. */
export const slugField: FieldDefinition = {
  name: 'slug',
  type: 'string',
  required: true,
  unique: true,
  maxLength: 100,
  pattern: '^[-a-zA-Z0-9_]+$',
  format: 'slug',
};

/** An asset tag, unique across the model's objects (racks, devices, modules, inventory items). */
export const assetTagField: FieldDefinition = {
  name: 'asset_tag',
  label: 'Asset tag',
  type: 'string',
  nullable: true,
  blank: true,
  default: null,
  unique: true,
  maxLength: 50,
};

/** A short free-text description, as most models have. */
export const descriptionField: FieldDefinition = {
  name: 'description',
  type: 'string',
  blank: true,
  default: '',
  maxLength: 200,
};

/** A URL-friendly identifier unique only within a scope (among siblings, within a site or manufacturer). */
export const scopedSlugField: FieldDefinition = {
  name: 'slug',
  type: 'string',
  required: true,
  maxLength: 100,
  pattern: '^[-a-zA-Z0-9_]+$',
  format: 'slug',
};

/** The tenant an object belongs to (NetBox's TenancyMixin): a tenant in use cannot be deleted. */
export const tenantField: FieldDefinition = {
  name: 'tenant',
  type: 'fk',
  target: 'tenancy.tenant',
  onDelete: 'PROTECT',
  nullable: true,
  default: null,
};

/** A globally unique name. */
export function uniqueNameField(maxLength = 100): FieldDefinition {
  return { name: 'name', type: 'string', required: true, unique: true, maxLength };
}

/** An annotated count: how many `model` objects point here through `via`. */
export function countField(name: string, model: string, via: string): FieldDefinition {
  return { name, type: 'count', readOnly: true, annotated: true, count: { model, via } };
}

/** An address family, derived from the network or address it describes. */
export const familyField: FieldDefinition = {
  name: 'family',
  type: 'choice',
  readOnly: true,
  choices: IP_FAMILY_CHOICES,
};

/** The unit a weight is given in (device types, racks). */
export const weightUnitField: FieldDefinition = {
  name: 'weight_unit',
  type: 'choice',
  blank: true,
  emptyAsNull: true,
  default: '',
  choices: WEIGHT_UNIT_CHOICES,
};

/** A tree node's parent: deleting a node deletes its subtree. */
export function parentField(model: string): FieldDefinition {
  return { name: 'parent', type: 'fk', target: model, onDelete: 'CASCADE', nullable: true, default: null };
}

/** A tree node's depth (computed by the model's `compute._depth` hook). */
export const depthField: FieldDefinition = { name: '_depth', type: 'computed', readOnly: true, value: 0 };

/** Names and slugs unique among siblings, and among top-level nodes (a null parent never collides in SQL). */
export function siblingUnique(noun: string): UniqueConstraint[] {
  return [
    { fields: ['parent', 'name'] },
    { fields: ['name'], whenNull: 'parent', message: `A top-level ${noun} with this name already exists.` },
    { fields: ['parent', 'slug'] },
    { fields: ['slug'], whenNull: 'parent', message: `A top-level ${noun} with this slug already exists.` },
  ];
}

/** The life cycle of a site or location (NetBox's SiteStatusChoices / LocationStatusChoices). */
export const siteStatusField: FieldDefinition = {
  name: 'status',
  type: 'choice',
  default: 'active',
  choices: SITE_STATUS_CHOICES,
};

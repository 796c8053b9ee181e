// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { identityFields, tenantField } from '../commonFields.js';
import { pairFilters, siteScopeFilters, tenancyFilters, treeFilters } from '../filterSpecs.js';
import type { FilterMethod } from '../filterTypes.js';
import { fieldError, pyStr, related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { rackDisplay } from './rack.js';

/** str(reservation): the rack it reserves units of. */
async function reservationDisplay(obj: StoredObject, view: LookupView): Promise<string> {
  const rack = await related(view, 'dcim.rack', obj.rack);
  return `Reservation for rack ${rack ? rackDisplay(rack) : 'None'}`;
}

function unitsOf(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((u): u is number => typeof u === 'number') : [];
}

/**
 * Units are required and not blank; each must be a unit of the rack (1 to its height)
 * and reserved by no other reservation of the rack.
 */
async function validateReservation(obj: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  const units = unitsOf(obj.units);
  if (units.length === 0) return fieldError('units', 'This field cannot be blank.');
  const rack = await related(view, 'dcim.rack', obj.rack);
  if (!rack) return;
  const height = Number(rack.u_height);
  const invalid = units.filter((u) => !(u >= 1 && u <= height));
  if (invalid.length)
    return fieldError('units', `Invalid unit(s) for ${pyStr(rack.u_height)}U rack: ${invalid.join(', ')}`);
  const others = await view.find('dcim.rackreservation', { rack: rack.id, id: { $ne: obj.id } });
  const reserved = new Set(others.flatMap((other) => unitsOf(other.units)));
  const conflicting = units.filter((u) => reserved.has(u));
  if (conflicting.length)
    return fieldError('units', `The following units have already been reserved: ${conflicting.join(', ')}`);
}

/** `q` also finds reservations by their rack's name or facility id and by the reserving user's username. */
const rackOrUser: FilterMethod = async ([text], env) => {
  const racks = await env.ids('dcim.rack', {
    $or: [{ name: env.textCondition('ic', String(text)) }, { facility_id: env.textCondition('ic', String(text)) }],
  });
  const users = await env.ids('auth.user', { username: env.textCondition('ic', String(text)) });
  if (racks.length === 0 && users.length === 0) return null;
  return { $or: [{ rack: { $in: racks } }, { user: { $in: users } }] };
};

export const rackreservation: ModelDefinition = {
  key: 'dcim.rackreservation',
  app: 'dcim',
  model: 'rackreservation',
  path: 'rack-reservations',
  verboseName: 'rack reservation',
  verboseNamePlural: 'rack reservations',
  fields: [
    ...identityFields,
    { name: 'rack', type: 'fk', target: 'dcim.rack', onDelete: 'CASCADE', required: true, relatedName: 'reservations' },
    { name: 'units', type: 'array', required: true, items: 'integer' },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
    // The brief form names the user by username alone.
    { name: 'user', type: 'fk', target: 'auth.user', onDelete: 'PROTECT', required: true, briefAttribute: 'username' },
    { ...tenantField, relatedName: 'rackreservations' },
    { name: 'description', type: 'string', required: true, maxLength: 200 },
    { name: 'comments', type: 'string', blank: true, default: '' },
    { name: 'tags', type: 'tags', target: 'extras.tag' },
    { name: 'custom_fields', type: 'custom_fields', default: {} },
  ],
  displayReads: ['dcim.rack'],
  brief: ['id', 'url', 'display', 'user', 'units'],
  ordering: ['created', 'id'],
  search: ['description'],
  filters: {
    ...tenancyFilters,
    ...pairFilters('site_id', 'site', 'dcim.site', ['rack', 'site']),
    ...siteScopeFilters(['rack', 'site']),
    ...treeFilters('location_id', 'location', 'dcim.location', ['rack', 'location']),
    user: { kind: 'related', target: 'auth.user', by: 'username', path: ['user'] },
    rack: false,
    comments: false,
    q: { kind: 'search', also: rackOrUser },
  },
  hooks: {
    display: reservationDisplay,
    validate: validateReservation,
  },
};

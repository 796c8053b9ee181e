// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { countField, descriptionField, identityFields } from '../commonFields.js';
import type { DecidedChange, FollowUpCommand } from '../compositeWrites.js';
import { pairFilters, siteScopeFilters } from '../filterSpecs.js';
import type { FilterMethod } from '../filterTypes.js';
import { fieldError, related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { deviceDisplay } from './device.js';

/** Once a chassis exists, its master must be one of its members (a new chassis makes its master one). */
async function validateChassis(
  obj: StoredObject,
  view: LookupView,
  previous: StoredObject | null,
): Promise<FieldErrors | void> {
  if (!previous) return;
  const master = await related(view, 'dcim.device', obj.master);
  if (!master || master.virtual_chassis === obj.id) return;
  return fieldError(
    'master',
    `The selected master (${await deviceDisplay(master, view)}) is not assigned to this virtual chassis.`,
  );
}

/** A new chassis with a master takes the master in as its member in position 1. */
function masterJoins(change: DecidedChange): FollowUpCommand[] {
  const master = change.obj.master;
  if (change.action !== 'create' || typeof master !== 'number') return [];
  return [
    { kind: 'update', model: 'dcim.device', id: master, input: { virtual_chassis: change.obj.id, vc_position: 1 } },
  ];
}

/**
 * A chassis whose members hold interfaces in a LAG of another member cannot be deleted:
 * those interfaces protect it.
 */
async function crossChassisLagMembers(
  obj: StoredObject,
  view: LookupView,
): Promise<Array<{ model: string; obj: StoredObject }>> {
  const members = (await view.find('dcim.device', { virtual_chassis: obj.id })).map((d) => d.id);
  if (members.length === 0) return [];
  const inLags = await view.find('dcim.interface', { device: { $in: members }, lag: { $ne: null } });
  const found: Array<{ model: string; obj: StoredObject }> = [];
  for (const iface of inLags) {
    const lag = await related(view, 'dcim.interface', iface.lag);
    if (lag && lag.device !== iface.device) found.push({ model: 'dcim.interface', obj: iface });
  }
  return found;
}

/** `q` also finds a chassis by the name of one of its members. */
const memberName: FilterMethod = async ([text], env) => {
  const members = await env.find('dcim.device', {
    virtual_chassis: { $ne: null },
    name: env.textCondition('ic', String(text)),
  });
  return members.length ? { id: { $in: [...new Set(members.map((d) => d.virtual_chassis))] } } : null;
};

export const virtualchassis: ModelDefinition = {
  key: 'dcim.virtualchassis',
  app: 'dcim',
  model: 'virtualchassis',
  path: 'virtual-chassis',
  verboseName: 'virtual chassis',
  verboseNamePlural: 'virtual chassis',
  fields: [
    ...identityFields,
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'domain', type: 'string', blank: true, default: '', maxLength: 30 },
    {
      name: 'master',
      type: 'fk',
      target: 'dcim.device',
      onDelete: 'PROTECT',
      oneToOne: true,
      nullable: true,
      default: null,
      unique: true,
      relatedName: 'vc_master_for',
    },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    { name: 'tags', type: 'tags', target: 'extras.tag' },
    { name: 'custom_fields', type: 'custom_fields', default: {} },
    countField('member_count', 'dcim.device', 'virtual_chassis'),
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name', 'master', 'member_count'],
  ordering: ['name', 'id'],
  search: ['name', 'domain'],
  filters: {
    ...siteScopeFilters(['master', 'site']),
    ...pairFilters('site_id', 'site', 'dcim.site', ['master', 'site']),
    ...pairFilters('tenant_id', 'tenant', 'tenancy.tenant', ['master', 'tenant']),
    description: false,
    comments: false,
    q: { kind: 'search', also: memberName },
  },
  hooks: {
    validate: validateChassis,
    followUps: masterJoins,
    protectedBy: crossChassisLagMembers,
  },
};

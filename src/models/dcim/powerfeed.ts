// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import type { Choice, FieldDefinition } from '../fieldDefinition.js';
import { pairFilters, siteScopeFilters } from '../filterSpecs.js';
import type { FilterSpec } from '../filterTypes.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { cabledObjectFilters, pathEndpointFilters } from './cabledObjectFilters.js';
import { cableEndFields, occupiedField, pathEndpointFields } from './cableFields.js';
import { traceView } from './cabling/traceViews.js';
import { POWER_FEED_PHASE_CHOICES, POWER_FEED_SUPPLY_CHOICES, POWER_FEED_TYPE_CHOICES } from './choices.js';
import { markedWhileCabledProblem } from './componentParents.js';
import { availablePower, powerFeedProblems } from './powerFeedRules.js';

function choiceField(name: string, choices: Choice[], defaultValue: string): FieldDefinition {
  return { name, type: 'choice', default: defaultValue, choices };
}

/** NetBox filters these choices with one value only (the last one given), and their negation. */
function singleChoiceFilter(field: string, choices: Choice[]): FilterSpec {
  return { kind: 'field', field, value: 'string', lookups: ['n'], choices: choices.map((c) => c.value), single: true };
}

function numberFilter(field: string): FilterSpec {
  return { kind: 'field', field, value: 'integer', lookups: ['n', 'lte', 'lt', 'gte', 'gt'] };
}

export const powerfeed: ModelDefinition = {
  key: 'dcim.powerfeed',
  app: 'dcim',
  model: 'powerfeed',
  path: 'power-feeds',
  verboseName: 'power feed',
  verboseNamePlural: 'power feeds',
  fields: [
    ...identityFields,
    {
      name: 'power_panel',
      type: 'fk',
      target: 'dcim.powerpanel',
      onDelete: 'PROTECT',
      required: true,
      relatedName: 'powerfeeds',
    },
    {
      name: 'rack',
      type: 'fk',
      target: 'dcim.rack',
      onDelete: 'PROTECT',
      nullable: true,
      default: null,
      relatedName: 'powerfeed_set',
    },
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    choiceField(
      'status',
      [
        { value: 'offline', label: 'Offline' },
        { value: 'active', label: 'Active' },
        { value: 'planned', label: 'Planned' },
        { value: 'failed', label: 'Failed' },
      ],
      'active',
    ),
    choiceField('type', POWER_FEED_TYPE_CHOICES, 'primary'),
    choiceField('supply', POWER_FEED_SUPPLY_CHOICES, 'ac'),
    choiceField('phase', POWER_FEED_PHASE_CHOICES, 'single-phase'),
    // The defaults are NetBox's stock POWERFEED_DEFAULT_VOLTAGE / _AMPERAGE / _MAX_UTILIZATION.
    { name: 'voltage', type: 'integer', default: 120, min: -32768, max: 32767 },
    { name: 'amperage', type: 'integer', default: 15, min: 1, max: 32767 },
    {
      name: 'max_utilization',
      type: 'integer',
      default: 80,
      min: 1,
      max: 100,
      help: 'Maximum permissible draw (percentage)',
    },
    { name: 'mark_connected', type: 'boolean', default: false },
    ...cableEndFields,
    ...pathEndpointFields,
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
    occupiedField,
    // Worked out on every save, as NetBox does; NetBox 3.4's API does not show it.
    { name: 'available_power', type: 'integer', internal: true, default: 0 },
  ],
  brief: ['id', 'url', 'display', 'name', 'cable', '_occupied'],
  // NetBox orders power_panel by the panels' own ordering (site, name); here by id
  ordering: ['power_panel', 'name', 'id'],
  search: ['name', 'comments'],
  unique: [{ fields: ['power_panel', 'name'] }],
  filters: {
    ...siteScopeFilters(['power_panel', 'site']),
    ...pairFilters('site_id', 'site', 'dcim.site', ['power_panel', 'site']),
    ...cabledObjectFilters,
    ...pathEndpointFilters,
    type: singleChoiceFilter('type', POWER_FEED_TYPE_CHOICES),
    supply: singleChoiceFilter('supply', POWER_FEED_SUPPLY_CHOICES),
    phase: singleChoiceFilter('phase', POWER_FEED_PHASE_CHOICES),
    // Never empty, so NetBox gives these numbers no `empty` lookup.
    voltage: numberFilter('voltage'),
    amperage: numberFilter('amperage'),
    max_utilization: numberFilter('max_utilization'),
    // NetBox has power_panel_id and rack_id, not the relations by name, nor these text fields.
    power_panel: false,
    rack: false,
    mark_connected: false,
    description: false,
    comments: false,
  },
  detailViews: [traceView],
  hooks: {
    validate: async (obj, view) => (await powerFeedProblems(obj, view)) ?? markedWhileCabledProblem(obj),
    beforeSave(obj) {
      obj.available_power = availablePower({
        voltage: Number(obj.voltage),
        amperage: Number(obj.amperage),
        max_utilization: Number(obj.max_utilization),
        phase: obj.phase,
      });
    },
  },
};

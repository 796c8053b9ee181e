// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import type { FollowUpCommand } from '../compositeWrites.js';
import { cabledObjectFilters } from '../dcim/cabledObjectFilters.js';
import { cableEndFields, occupiedField } from '../dcim/cableFields.js';
import { pathsView } from '../dcim/cabling/traceViews.js';
import { markedWhileCabledProblem } from '../dcim/componentParents.js';
import { ONE_VALUE } from '../filterSpecs.js';
import { fieldError, pyStr, refId, related } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { CIRCUIT_TERMINATION_SIDE_CHOICES } from './choices.js';

const SPEED_LOOKUPS = ['n', 'lte', 'lt', 'gte', 'gt'];

export const circuittermination: ModelDefinition = {
  key: 'circuits.circuittermination',
  app: 'circuits',
  model: 'circuittermination',
  path: 'circuit-terminations',
  verboseName: 'circuit termination',
  verboseNamePlural: 'circuit terminations',
  fields: [
    ...identityFields,
    {
      name: 'circuit',
      type: 'fk',
      target: 'circuits.circuit',
      onDelete: 'CASCADE',
      required: true,
      relatedName: 'terminations',
    },
    {
      name: 'term_side',
      type: 'choice',
      // NetBox's verbose name: the unique-together message says "Circuit and Termination"
      label: 'Termination',
      required: true,
      choiceRender: 'plain',
      choices: CIRCUIT_TERMINATION_SIDE_CHOICES,
    },
    { name: 'site', type: 'fk', target: 'dcim.site', onDelete: 'PROTECT', nullable: true, default: null },
    {
      name: 'provider_network',
      type: 'fk',
      target: 'circuits.providernetwork',
      onDelete: 'PROTECT',
      nullable: true,
      default: null,
    },
    {
      name: 'port_speed',
      label: 'Port speed (Kbps)',
      type: 'integer',
      nullable: true,
      default: null,
      min: 0,
      max: 2147483647,
    },
    {
      name: 'upstream_speed',
      label: 'Upstream speed (Kbps)',
      help: 'Upstream speed, if different from port speed',
      type: 'integer',
      nullable: true,
      default: null,
      min: 0,
      max: 2147483647,
    },
    { name: 'xconnect_id', label: 'Cross-connect ID', type: 'string', blank: true, default: '', maxLength: 50 },
    { name: 'pp_info', label: 'Patch panel/port(s)', type: 'string', blank: true, default: '', maxLength: 100 },
    descriptionField,
    { name: 'mark_connected', type: 'boolean', default: false, help: 'Treat as if a cable is connected' },
    ...cableEndFields,
    ...changeLoggedFields,
    occupiedField,
  ],
  displayReads: ['circuits.circuit'],
  brief: ['id', 'url', 'display', 'circuit', 'term_side', 'cable', '_occupied'],
  // NetBox orders circuit by its own ordering (provider name, cid); here by id
  ordering: ['circuit', 'term_side', 'id'],
  search: ['xconnect_id', 'pp_info', 'description'],
  unique: [{ fields: ['circuit', 'term_side'] }],
  filters: {
    // NetBox: ChoiceFilters (one value), not MultipleChoiceFilters
    term_side: ONE_VALUE,
    ...cabledObjectFilters,
    port_speed: { kind: 'field', field: 'port_speed', value: 'integer', lookups: SPEED_LOOKUPS },
    upstream_speed: { kind: 'field', field: 'upstream_speed', value: 'integer', lookups: SPEED_LOOKUPS },
    provider_network: false,
    pp_info: false,
    mark_connected: false,
    // the search also finds the terminations of circuits whose cid contains the text
    q: {
      kind: 'search',
      also: async ([text], env) => ({
        circuit: { $in: await env.ids('circuits.circuit', { cid: env.textCondition('ic', String(text)) }) },
      }),
    },
  },
  detailViews: [pathsView],
  hooks: {
    display: async (obj, view) =>
      `${pyStr((await related(view, 'circuits.circuit', obj.circuit))?.cid)}: Termination ${pyStr(obj.term_side)}`,
    validate: async (obj) => siteOrProviderNetworkProblem(obj) ?? markedWhileCabledProblem(obj),
    relatedObject: (obj) => {
      const circuit = refId(obj.circuit);
      return circuit === null ? null : { type: 'circuits.circuit', id: circuit };
    },
    followUps: ({ obj }) => circuitSaved(obj),
  },
};

/** A termination ends at a site or at a provider network: exactly one of the two. */
export function siteOrProviderNetworkProblem(obj: StoredObject): FieldErrors | undefined {
  const site = refId(obj.site);
  const network = refId(obj.provider_network);
  if (site === null && network === null)
    return fieldError('__all__', 'A circuit termination must attach to either a site or a provider network.');
  if (site !== null && network !== null)
    return fieldError('__all__', 'A circuit termination cannot attach to both a site and a provider network.');
  return undefined;
}

/**
 * NetBox saves a termination's circuit whenever the termination is saved (to point its
 * termination_a or termination_z at it): the circuit's last_updated moves and its change
 * is logged in the same request, so clients following circuits' changes see the new end.
 * Deleting a termination only clears the pointer, without a save.
 */
function circuitSaved(obj: StoredObject): FollowUpCommand[] {
  const circuit = refId(obj.circuit);
  return circuit === null ? [] : [{ kind: 'update', model: 'circuits.circuit', id: circuit, input: {} }];
}

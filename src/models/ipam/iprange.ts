// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { rangeAvailableIps } from '../allocation/availableIps.js';
import { changeLoggedFields, descriptionField, familyField, identityFields, tenantField } from '../commonFields.js';
import { tenancyFilters, vrfByRd } from '../filterSpecs.js';
import type { FilterEnvironment, FilterMethod } from '../filterTypes.js';
import { fieldError, pyStr } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import { MATCH_NOTHING } from '../matchNothing.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { addressSortKey, type Cidr, formatAddress, normalizeHost, parseCidr } from '../values/ipNetworks.js';
import { VLAN_STATUS_CHOICES } from './choices.js';
import { inetCompare, inetWithin, rangeEndsError, rangeSize, rangeSizeError, rangeText } from './ipRangeRules.js';

export const iprange: ModelDefinition = {
  key: 'ipam.iprange',
  app: 'ipam',
  model: 'iprange',
  path: 'ip-ranges',
  verboseName: 'IP range',
  verboseNamePlural: 'IP ranges',
  fields: [
    ...identityFields,
    familyField,
    { name: 'start_address', type: 'ip_address', required: true },
    { name: 'end_address', type: 'ip_address', required: true },
    // kept with the range (set on every save from its two ends), so it can be ordered by
    { name: 'size', type: 'integer', readOnly: true },
    { name: 'vrf', type: 'fk', target: 'ipam.vrf', onDelete: 'PROTECT', nullable: true, default: null },
    tenantField,
    { name: 'status', type: 'choice', default: 'active', choices: VLAN_STATUS_CHOICES },
    { name: 'role', type: 'fk', target: 'ipam.role', onDelete: 'SET_NULL', nullable: true, default: null },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
    // NetBox's serializer declares it but a range has no such attribute: never rendered, never written.
    { name: 'children', type: 'computed', readOnly: true, writeOnly: true, value: null },
  ],
  brief: ['id', 'url', 'display', 'family', 'start_address', 'end_address'],
  // NetBox: VRF (nulls first), then the start address (inet order), then id; the end
  // address never breaks a tie (two ranges of a VRF with one start would overlap) but
  // makes ?ordering=end_address numeric.
  ordering: ['vrf', '_start_address', '_end_address', 'id'],
  // NetBox: F('vrf').asc(nulls_first=True), the VRF's id
  idOrderedRelations: ['vrf'],
  // NetBox orders by the stored size too, a read-only column of its own
  orderingFields: [
    'id',
    'start_address',
    'end_address',
    'size',
    'vrf',
    'tenant',
    'status',
    'role',
    'description',
    'comments',
    'tags',
    'created',
    'last_updated',
  ],
  search: ['description'],
  filters: {
    ...tenancyFilters,
    ...vrfByRd,
    family: { kind: 'field', field: 'family', value: 'integer', lookups: [], single: true },
    start_address: { kind: 'method', method: addressIs('_start_address') },
    end_address: { kind: 'method', method: addressIs('_end_address') },
    contains: { kind: 'method', single: true, method: rangesContaining },
    q: { kind: 'search', fields: ['description'], also: searchAddresses },
    size: false,
    comments: false,
  },
  hooks: {
    display: (obj) => {
      const ends = endsOf(obj);
      return ends ? rangeText(ends.start, ends.end) : pyStr(obj.start_address);
    },
    normalize(obj) {
      const errors: FieldErrors = {};
      for (const field of ['start_address', 'end_address']) {
        const value = obj[field];
        if (value === null || value === undefined || value === '') continue; // left to the required check
        const result = normalizeHost(value);
        if (result.ok) obj[field] = result.text;
        else errors[field] = [result.message];
      }
      if (Object.keys(errors).length > 0) return errors;
      const ends = endsOf(obj);
      if (ends) {
        obj.family = ends.start.family;
        obj.size = Number(rangeSize(ends.start, ends.end));
      }
      return undefined;
    },
    derive(obj) {
      const ends = endsOf(obj);
      if (!ends)
        return {
          _family: null,
          _start_address: null,
          _end_address: null,
          _prefixlen: null,
          _start_host: null,
          _end_host: null,
        };
      const { start, end } = ends;
      return {
        _family: start.family,
        _start_address: addressSortKey(start.family, start.value),
        _end_address: addressSortKey(end.family, end.value),
        _prefixlen: start.prefixlen,
        _start_host: formatAddress(start.family, start.value),
        _end_host: formatAddress(end.family, end.value),
      };
    },
    validate: validateRange,
  },
  detailActions: [rangeAvailableIps],
};

function endsOf(obj: StoredObject): { start: Cidr; end: Cidr } | null {
  const start = typeof obj.start_address === 'string' ? parseCidr(obj.start_address) : null;
  const end = typeof obj.end_address === 'string' ? parseCidr(obj.end_address) : null;
  return start && end ? { start, end } : null;
}

/** NetBox's IPRange.clean: the ends fit together, no other range of the VRF overlaps, the size fits. */
async function validateRange(obj: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  const ends = endsOf(obj);
  if (!ends) return;
  const { start, end } = ends;
  const wrong = rangeEndsError(start, end);
  if (wrong) return fieldError(wrong.field, wrong.message);
  const overlapping = await firstOverlap(obj, start, end, view);
  if (overlapping) {
    const vrf = obj.vrf == null ? null : await view.get('ipam.vrf', Number(obj.vrf));
    const vrfText = vrf ? pyStr(vrf.display ?? vrf.name) : 'None';
    return fieldError(
      '__all__',
      `Defined addresses overlap with range ${pyStr(overlapping.display)} in VRF ${vrfText}`,
    );
  }
  const tooLarge = rangeSizeError(start, end);
  if (tooLarge) return fieldError('__all__', tooLarge);
}

/**
 * The first other range of the VRF (in range order) that starts inside this one, ends
 * inside it, or encloses it, compared in inet order as NetBox's query compares them.
 */
async function firstOverlap(obj: StoredObject, start: Cidr, end: Cidr, view: LookupView): Promise<StoredObject | null> {
  const others = await view.find('ipam.iprange', { vrf: obj.vrf ?? null, _family: start.family, id: { $ne: obj.id } });
  const hits: Array<{ range: StoredObject; start: Cidr }> = [];
  for (const range of others) {
    const other = endsOf(range);
    if (!other) continue;
    const startsInside = inetWithin(other.start, start, end);
    const endsInside = inetWithin(other.end, start, end);
    const encloses = inetCompare(other.start, start) <= 0 && inetCompare(other.end, end) >= 0;
    if (startsInside || endsInside || encloses) hits.push({ range, start: other.start });
  }
  hits.sort((a, b) => inetCompare(a.start, b.start) || a.range.id - b.range.id);
  return hits[0]?.range ?? null;
}

/* ------------------------------------------------------------ list filters */

/**
 * Ranges whose end (`key`) is one of the values: with a mask, address and mask both
 * match; without, the host address alone. Any unparsable value matches nothing.
 */
function addressIs(key: '_start_address' | '_end_address'): FilterMethod {
  return (values) => {
    const clauses: Array<Record<string, unknown>> = [];
    for (const raw of values) {
      const text = String(raw).trim();
      const cidr = parseCidr(text);
      if (!cidr) return MATCH_NOTHING;
      const address = addressSortKey(cidr.family, cidr.value);
      clauses.push(text.includes('/') ? { [key]: address, _prefixlen: cidr.prefixlen } : { [key]: address });
    }
    return clauses.length === 1 ? clauses[0] : { $or: clauses };
  };
}

/**
 * Ranges holding the value between their ends in inet order (a bare address is a /32 or
 * /128 and so mostly misses ranges with a shorter mask, as in NetBox); unparsable: none.
 */
async function rangesContaining(
  [raw]: Array<string | number | boolean>,
  env: FilterEnvironment,
): Promise<Record<string, unknown> | null> {
  const text = String(raw).trim();
  if (!text) return null;
  const value = parseCidr(text);
  if (!value) return MATCH_NOTHING;
  // inet order is not the address order (the masks count), so the family is the only narrowing.
  const candidates = await env.find('ipam.iprange', { _family: value.family });
  const ids = candidates.filter((range) => {
    const ends = endsOf(range);
    return ends !== null && inetWithin(value, ends.start, ends.end);
  });
  return { id: { $in: ids.map((range) => range.id) } };
}

/**
 * `q` beyond the description: either host address containing the text (case-sensitive:
 * host text is lower case, so text with capitals never matches), or, when the text is an
 * address, ranges starting or ending exactly there (mask included).
 */
function searchAddresses(
  [raw]: Array<string | number | boolean>,
  env: FilterEnvironment,
): Record<string, unknown> | null {
  const text = String(raw);
  const clauses: Array<Record<string, unknown>> = [];
  if (text === text.toLowerCase()) {
    const contains = env.textCondition('ic', text);
    clauses.push({ _start_host: contains }, { _end_host: contains });
  }
  const cidr = text.length <= 100 ? parseCidr(text.trim()) : null;
  if (cidr) {
    const address = addressSortKey(cidr.family, cidr.value);
    clauses.push(
      { _start_address: address, _prefixlen: cidr.prefixlen },
      { _end_address: address, _prefixlen: cidr.prefixlen },
    );
  }
  return clauses.length ? { $or: clauses } : null;
}

/**
 * What services and service templates share (NetBox's ServiceBase): the protocol, the
 * list of ports, their string form, the `port` filter and the rules on both.
 */
import type { FieldErrors } from '../../errors/fieldErrors.js';
import type { FieldDefinition } from '../fieldDefinition.js';
import type { FilterSpec } from '../filterTypes.js';
import { pyStr } from '../hooks.js';
import type { StoredObject } from '../storedObject.js';
import { SERVICE_PROTOCOL_CHOICES } from './choices.js';

const PORT_MIN = 1;
const PORT_MAX = 65535;

/** The serializer lists ports as required; the model holds them to 1..65535 each. */
export const portsField: FieldDefinition = { name: 'ports', type: 'array', required: true, items: 'integer' };

/**
 * The serializer leaves the protocol optional, but the model refuses a blank one, so a
 * request without it is answered by the model rule (see serviceRules), not "required".
 */
export const protocolField: FieldDefinition = { name: 'protocol', type: 'choice', choices: SERVICE_PROTOCOL_CHOICES };

/** Ports in runs, as NetBox prints them: sorted, consecutive numbers collapsed ('80-81, 443'). */
export function portList(ports: unknown): string {
  const sorted = (Array.isArray(ports) ? ports.filter((p): p is number => typeof p === 'number') : []).sort(
    (a, b) => a - b,
  );
  const runs: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    runs.push(j === i ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return runs.join(', ');
}

/** '<name> (<protocol label>/<ports>)', e.g. 'Web (TCP/80-81, 443)'. */
export function serviceDisplay(obj: StoredObject): string {
  const label = SERVICE_PROTOCOL_CHOICES.find((c) => c.value === obj.protocol)?.label ?? pyStr(obj.protocol ?? '');
  return `${pyStr(obj.name)} (${label}/${portList(obj.ports)})`;
}

/** The protocol must be given; ports must be given, each within 1..65535. */
export function serviceRules(obj: StoredObject): FieldErrors | undefined {
  const errors: FieldErrors = {};
  if (obj.protocol === undefined || obj.protocol === null || obj.protocol === '')
    errors.protocol = ['This field cannot be blank.'];
  const ports = Array.isArray(obj.ports) ? (obj.ports as number[]) : [];
  if (ports.length === 0) errors.ports = ['This field cannot be blank.'];
  else if (ports.some((p) => p > PORT_MAX)) errors.ports = [`Ensure this value is less than or equal to ${PORT_MAX}.`];
  else if (ports.some((p) => p < PORT_MIN))
    errors.ports = [`Ensure this value is greater than or equal to ${PORT_MIN}.`];
  return Object.keys(errors).length ? errors : undefined;
}

/**
 * Lexicographic order of the port lists, as PostgreSQL compares arrays (a list before
 * its extensions): each port zero-padded to five digits. A sort on the stored array
 * would compare its smallest elements instead.
 */
export function portsSortKey(ports: unknown): string {
  return (Array.isArray(ports) ? ports : []).map((p) => String(p).padStart(5, '0')).join(',');
}

/** `port`: one number, contained in the ports list. */
export const portFilter: FilterSpec = {
  kind: 'method',
  value: 'integer',
  single: true,
  method: ([port]) => ({ ports: port }),
};

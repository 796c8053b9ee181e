/**
 * The `mac_address` filter of devices and virtual machines: those with an interface of
 * one of the MAC addresses, with NetBox's text lookups; the negated lookups keep those
 * with no such interface.
 */
import type { FilterSpec } from './filterTypes.js';
import { canonicalMac } from './values/hardwareAddress.js';

const TEXT_LOOKUPS = ['ic', 'isw', 'iew', 'ie'] as const;
type TextLookup = (typeof TEXT_LOOKUPS)[number];

/** Lookups of a MAC filter: exact and the text ones, each with its negation (no 'empty'). */
const LOOKUPS = ['n', ...TEXT_LOOKUPS, ...TEXT_LOOKUPS.map((l) => `n${l}`)];

/** `interfaceModel`'s `parentField` names the device or VM an interface belongs to. */
export function interfaceMacFilter(interfaceModel: string, parentField: string): FilterSpec {
  return {
    kind: 'method',
    lookups: LOOKUPS,
    method: async (values, env) => {
      // every lookup but 'exact' and the text ones is a negation ('n', 'nic' ...)
      const negated = env.lookup.startsWith('n');
      const base = negated ? env.lookup.slice(1) : env.lookup;
      const positive = base === '' || base === 'exact' ? 'exact' : (base as TextLookup);
      // An exact value is compared in canonical form; one that is no MAC address matches nothing.
      const condition =
        positive === 'exact'
          ? { mac_address: { $in: values.map((v) => canonicalMac(String(v)) ?? String(v)) } }
          : { $or: values.map((v) => ({ mac_address: env.textCondition(positive, String(v)) })) };
      const interfaces = await env.find(interfaceModel, condition);
      const holders = [...new Set(interfaces.map((i) => i[parentField]))];
      return negated ? { id: { $nin: holders } } : { id: { $in: holders } };
    },
  };
}

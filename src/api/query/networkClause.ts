/** IP network filters (within, contains, parent, address ...) as range conditions over the projected sort keys. */
import { MATCH_NOTHING } from '../../models/matchNothing.js';
import { addressSortKey, type Cidr, lastAddress, networkAddress, parseCidr } from '../../models/values/ipNetworks.js';
import type { Query } from '../../projections/ReadStore.js';
import { anyOf } from './clauses.js';
import type { NetworkFilter } from './filterSet.js';

function networkBounds(cidr: Cidr): { net: string; last: string; floor: string } {
  return {
    net: addressSortKey(cidr.family, networkAddress(cidr)),
    last: addressSortKey(cidr.family, lastAddress(cidr)),
    floor: addressSortKey(cidr.family, 0n),
  };
}

export function networkClause(filter: NetworkFilter, raws: string[]): Query {
  const values = filter.single ? [raws[raws.length - 1]!] : raws;
  const parsed = values.map((v) => (v.length > 100 ? null : parseCidr(v)));
  switch (filter.op) {
    case 'within':
    case 'within_include': {
      const cidr = parsed[parsed.length - 1];
      if (!cidr) return MATCH_NOTHING;
      const { net, last } = networkBounds(cidr);
      return {
        _network: { $gte: net, $lte: last },
        _prefixlen: { [filter.op === 'within' ? '$gt' : '$gte']: cidr.prefixlen },
      };
    }
    case 'contains': {
      const cidr = parsed[parsed.length - 1];
      if (!cidr) return MATCH_NOTHING;
      const { net, last, floor } = networkBounds(cidr);
      return { _network: { $gte: floor, $lte: net }, _last: { $gte: last }, _prefixlen: { $lte: cidr.prefixlen } };
    }
    case 'network':
      return anyOf(
        parsed
          .filter((c): c is Cidr => c !== null)
          .map((c) => ({ _network: networkBounds(c).net, _prefixlen: c.prefixlen })),
      );
    case 'parent': {
      if (parsed.some((c) => c === null)) return MATCH_NOTHING;
      return anyOf(
        (parsed as Cidr[]).map((c) => {
          const { net, last } = networkBounds(c);
          return { _address: { $gte: net, $lte: last } };
        }),
      );
    }
    case 'address':
      return anyOf(
        values.flatMap((v, i) => {
          const c = parsed[i];
          if (!c) return [];
          const key = addressSortKey(c.family, c.value);
          return [v.includes('/') ? { _address: key, _prefixlen: c.prefixlen } : { _address: key }];
        }),
      );
  }
}

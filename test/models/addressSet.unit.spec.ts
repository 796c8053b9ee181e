import test from 'ava';

import { AddressSet } from '../../src/models/allocation/addressSet.js';
import { type Cidr, formatAddress, formatCidr, parseCidr } from '../../src/models/values/ipNetworks.js';

const cidr = (text: string) => parseCidr(text)!;
const ip = (text: string) => cidr(text).value;
const host = (text: string) => ({ first: ip(text), last: ip(text) });
const network = (text: string) => AddressSet.of(cidr(text));
const blocks = (set: AddressSet) => [...set.blocks()].map(formatCidr);
const addresses = (set: AddressSet) => [...set.addresses()].map((v) => formatAddress(set.family, v));

test('a network is one block; its size counts every address', (t) => {
  t.deepEqual(blocks(network('10.0.0.0/24')), ['10.0.0.0/24']);
  t.is(network('10.0.0.0/24').size, 256n);
  t.is(network('2001:db8::/64').size, 1n << 64n);
  t.is(network('0.0.0.0/1').size, 1n << 31n);
});

test('taking hosts out leaves the fewest aligned blocks, lowest first', (t) => {
  const free = network('10.0.0.0/24').without([host('10.0.0.0'), host('10.0.0.255'), host('10.0.0.77')]);
  t.deepEqual(blocks(free), [
    '10.0.0.1/32',
    '10.0.0.2/31',
    '10.0.0.4/30',
    '10.0.0.8/29',
    '10.0.0.16/28',
    '10.0.0.32/27',
    '10.0.0.64/29',
    '10.0.0.72/30',
    '10.0.0.76/32',
    '10.0.0.78/31',
    '10.0.0.80/28',
    '10.0.0.96/27',
    '10.0.0.128/26',
    '10.0.0.192/27',
    '10.0.0.224/28',
    '10.0.0.240/29',
    '10.0.0.248/30',
    '10.0.0.252/31',
    '10.0.0.254/32',
  ]);
  t.is(free.size, 253n);
});

test('removed runs may overlap, touch, repeat, come unsorted or lie outside', (t) => {
  const free = network('192.0.2.0/28').without([
    { first: ip('192.0.2.9'), last: ip('192.0.2.12') },
    host('192.0.2.3'),
    { first: ip('192.0.2.4'), last: ip('192.0.2.5') },
    host('192.0.2.3'),
    { first: ip('192.0.2.11'), last: ip('192.0.2.13') },
    { first: ip('192.0.1.0'), last: ip('192.0.2.0') },
    { first: ip('192.0.3.0'), last: ip('192.0.3.9') },
  ]);
  t.deepEqual(addresses(free), [
    '192.0.2.1',
    '192.0.2.2',
    '192.0.2.6',
    '192.0.2.7',
    '192.0.2.8',
    '192.0.2.14',
    '192.0.2.15',
  ]);
  t.is(free.size, 7n);
});

test('removing everything leaves an empty set', (t) => {
  const free = network('10.1.0.0/30').without([{ first: ip('10.0.0.0'), last: ip('10.255.255.255') }]);
  t.true(free.isEmpty);
  t.is(free.size, 0n);
  t.deepEqual(blocks(free), []);
  t.is(free.firstNetworkOf(32), null);
});

test('IPv6 arithmetic holds at the top of the address space', (t) => {
  const free = network('ffff:ffff:ffff:ffff:ffff:ffff:ffff:fff0/124').without([
    host('ffff:ffff:ffff:ffff:ffff:ffff:ffff:fff0'),
  ]);
  t.deepEqual(blocks(free), [
    'ffff:ffff:ffff:ffff:ffff:ffff:ffff:fff1/128',
    'ffff:ffff:ffff:ffff:ffff:ffff:ffff:fff2/127',
    'ffff:ffff:ffff:ffff:ffff:ffff:ffff:fff4/126',
    'ffff:ffff:ffff:ffff:ffff:ffff:ffff:fff8/125',
  ]);
  t.deepEqual(addresses(free).slice(-1), ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']);
});

test('addresses of a huge set are produced lazily', (t) => {
  const free = network('2001:db8::/32').without([host('2001:db8::')]);
  const first: string[] = [];
  for (const value of free.addresses()) {
    first.push(formatAddress(6, value));
    if (first.length === 3) break;
  }
  t.deepEqual(first, ['2001:db8::1', '2001:db8::2', '2001:db8::3']);
});

test('firstNetworkOf takes the lowest block at least as large as asked, not the best fit', (t) => {
  // Free: 10.0.0.0/26 is taken, so 10.0.0.64/26 and 10.0.0.128/25 remain.
  const free = network('10.0.0.0/24').withoutNetwork(cidr('10.0.0.0/26'));
  t.is(formatCidr(free.firstNetworkOf(27)!), '10.0.0.64/27');
  t.is(formatCidr(free.firstNetworkOf(25)!), '10.0.0.128/25');
  t.is(free.firstNetworkOf(24), null);
  const rest = free.withoutNetwork(cidr('10.0.0.64/27'));
  t.deepEqual(blocks(rest), ['10.0.0.96/27', '10.0.0.128/25']);
});

test('handing out networks one after another never hands out the same space twice', (t) => {
  let free = network('10.0.0.0/26');
  const taken: Cidr[] = [];
  for (const length of [28, 30, 27, 30, 29]) {
    const next = free.firstNetworkOf(length)!;
    taken.push(next);
    free = free.withoutNetwork(next);
  }
  t.deepEqual(taken.map(formatCidr), ['10.0.0.0/28', '10.0.0.16/30', '10.0.0.32/27', '10.0.0.20/30', '10.0.0.24/29']);
  t.true(free.isEmpty, 'the five fill the /26 exactly');
  t.is(free.firstNetworkOf(32), null);
});

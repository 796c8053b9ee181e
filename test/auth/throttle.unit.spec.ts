import test from 'ava';

import { LoginThrottle } from '../../src/auth/throttle.js';

const user = { free: 3, baseMs: 1_000, capMs: 8_000, forgetMs: 60_000 };
const address = { free: 5, baseMs: 1_000, capMs: 30_000, forgetMs: 60_000 };

test('free failures, then exponential delays up to a cap per username', (t) => {
  const throttle = new LoginThrottle(user, address);
  let now = 0;
  const fail = () => throttle.failure('alice', `10.0.0.${now}`, now); // a new address each time: the username limit alone
  for (let i = 0; i < 2; i++) {
    t.is(throttle.wait('alice', '192.0.2.1', now), 0);
    fail();
  }
  fail(); // third: the first delay
  t.is(throttle.wait('alice', '192.0.2.1', now), 1_000);
  const delays: number[] = [];
  for (let i = 0; i < 6; i++) {
    now += throttle.wait('alice', '192.0.2.1', now);
    fail();
    delays.push(throttle.wait('alice', '192.0.2.1', now));
  }
  t.deepEqual(delays, [2_000, 4_000, 8_000, 8_000, 8_000, 8_000], 'doubling, capped: never a permanent lockout');
  t.is(throttle.wait('ALICE', '192.0.2.1', now), 8_000, 'usernames are compared case-insensitively');
  t.is(throttle.wait('bob', '192.0.2.1', now), 0, 'other users are not affected');
});

test('counters are forgotten after a quiet period; a success resets the username', (t) => {
  const throttle = new LoginThrottle(user, address);
  for (let i = 0; i < 4; i++) throttle.failure('alice', '192.0.2.1', 0);
  t.true(throttle.wait('alice', '192.0.2.9', 1_000) > 0);
  t.is(throttle.wait('alice', '192.0.2.9', 60_000), 0, 'forgotten after forgetMs without failures');
  for (let i = 0; i < 4; i++) throttle.failure('bob', '192.0.2.2', 100_000);
  throttle.success('bob', '192.0.2.3');
  t.is(throttle.wait('bob', '192.0.2.4', 100_000), 0);
});

test('per address: many usernames from one address are slowed down too', (t) => {
  const throttle = new LoginThrottle(user, address);
  for (let i = 0; i < 5; i++) throttle.failure(`user${i}`, '203.0.113.5', 0);
  t.is(throttle.wait('someone-else', '203.0.113.5', 0), 1_000);
  t.is(throttle.wait('someone-else', '203.0.113.6', 0), 0);
});

test('a pair that logged in before passes, so an attacker elsewhere cannot lock its owner out', (t) => {
  const throttle = new LoginThrottle(user, address);
  throttle.success('alice', '192.0.2.10');
  for (let i = 0; i < 20; i++) throttle.failure('alice', '198.51.100.1', 0);
  t.true(throttle.wait('alice', '198.51.100.1', 0) > 0, 'the attacker waits');
  t.is(throttle.wait('alice', '192.0.2.10', 0), 0, 'the owner from a known address does not');
  t.true(throttle.wait('alice', '192.0.2.99', 0) > 0, 'an unknown address does');
});

test('a pair that logged in before gets a larger allowance, never an exemption from the account limit', (t) => {
  const throttle = new LoginThrottle(user, { ...address, free: 20 });
  throttle.success('alice', '192.0.2.10');
  // Twice the username's allowance (the 3rd failure is delayed: the 6th here), then the same doubling.
  for (let i = 0; i < 5; i++) throttle.failure('alice', '192.0.2.10', 0);
  t.is(throttle.wait('alice', '192.0.2.10', 0), 0, 'within the larger allowance');
  throttle.failure('alice', '192.0.2.10', 0);
  t.is(throttle.wait('alice', '192.0.2.10', 0), 1_000, 'the sixth wrong guess is held back');
  throttle.failure('alice', '192.0.2.10', 1_000);
  t.is(throttle.wait('alice', '192.0.2.10', 1_000), 2_000);
  throttle.success('alice', '192.0.2.10');
  t.is(throttle.wait('alice', '192.0.2.10', 1_000), 0, 'a success starts the pair afresh');
});

test('the address limit applies to a pair that logged in before', (t) => {
  const throttle = new LoginThrottle(user, { ...address, free: 8 });
  throttle.success('alice', '203.0.113.7');
  for (let i = 0; i < 8; i++) throttle.failure(`user${i}`, '203.0.113.7', 0);
  t.is(throttle.wait('alice', '203.0.113.7', 0), 1_000);
});

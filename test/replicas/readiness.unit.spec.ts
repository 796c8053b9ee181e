/**
 * Readiness tells "catching up after start" from "a little behind under load" (ready)
 * and "lagging" (not ready), so it does not flap while writes stream in.
 */
import test from 'ava';

import { followerHeadRefreshMs } from '../../src/replicas/headRefreshMs.js';
import { Readiness } from '../../src/replicas/Readiness.js';

function fixture() {
  const state = { position: 0, head: 100, now: 0, headAgeMs: 0 };
  const readiness = new Readiness(
    () => state.position,
    () => state.head,
    { maxLagEvents: 50, maxLagMs: 10_000 },
    () => state.now,
    () => state.headAgeMs,
  );
  return { state, readiness };
}

test('not ready while catching up after start, whatever the lag; ready once the first catch-up is done', (t) => {
  const { state, readiness } = fixture();
  t.like(readiness.report(), { ready: false, phase: 'catching-up', position: 0, head: 100, lag: 100 });
  state.position = 100;
  t.like(
    readiness.report(),
    { ready: false, phase: 'catching-up', lag: 0 },
    'caught up is said by markCaughtUp, not guessed',
  );
  readiness.markCaughtUp();
  t.like(readiness.report(), { ready: true, phase: 'ready', lag: 0, behindSeconds: 0 });
});

test('a steady trickle of writes a few events behind stays ready: the oldest waiting event is always young', (t) => {
  const { state, readiness } = fixture();
  state.position = 100;
  readiness.markCaughtUp();
  for (let step = 0; step < 100; step++) {
    state.now += 1_000;
    state.head += 5; // five new events a second ...
    t.true(readiness.report().ready, `step ${step}`);
    state.position = state.head - 3; // ... applied within the second, three still under way
  }
});

test('a burst beyond the event bound is lagging; a projector stuck for longer than the time bound is lagging; both recover', (t) => {
  const { state, readiness } = fixture();
  state.position = 100;
  readiness.markCaughtUp();
  state.head = 200;
  t.like(readiness.report(), { ready: false, phase: 'lagging', lag: 100 });
  state.position = 190;
  t.like(readiness.report(), { ready: true, phase: 'ready', lag: 10 });
  state.now += 10_001; // the events up to 200 have now waited more than 10 s
  t.like(readiness.report(), { ready: false, phase: 'lagging', lag: 10, behindSeconds: 10 });
  state.position = 200;
  t.like(readiness.report(), { ready: true, phase: 'ready', lag: 0, behindSeconds: 0 });
});

test('a steady lag longer than the time bound stays lagging at every probe, however far apart the probes come', (t) => {
  for (const probeEveryMs of [1_000, 10_000, 25_000]) {
    const { state, readiness } = fixture();
    const headAt = (ms: number) => 100 + Math.floor(ms / 1_000); // an event a second
    state.position = 100;
    readiness.markCaughtUp();
    const phases = new Set<string>();
    for (let ms = 0; ms <= 120_000; ms += probeEveryMs) {
      state.now = ms;
      state.head = headAt(ms);
      state.position = headAt(Math.max(0, ms - 30_000)); // each event applied 30 s after it was appended
      if (ms > 60_000) phases.add(readiness.report().phase);
      else readiness.report();
    }
    t.deepEqual([...phases], ['lagging'], `probes every ${probeEveryMs} ms`);
  }
});

test('once lagging, ready again only within half of each bound: a lag hovering at a bound does not flip readiness', (t) => {
  const { state, readiness } = fixture();
  state.position = 100;
  readiness.markCaughtUp();
  state.head = 151;
  t.like(readiness.report(), { phase: 'lagging', lag: 51 });
  for (const lag of [50, 49, 40, 30, 26]) {
    state.position = state.head - lag;
    t.like(readiness.report(), { phase: 'lagging', lag }, `lag ${lag}`);
  }
  state.position = state.head - 25;
  t.like(readiness.report(), { phase: 'ready', lag: 25 });
  state.position = state.head - 50;
  t.like(readiness.report(), { phase: 'ready', lag: 50 }, 'ready stays ready up to the bound itself');

  // The time bound likewise: lagging past 10 s, ready again within 5 s.
  state.position = state.head;
  t.like(readiness.report(), { phase: 'ready', lag: 0 });
  const start = state.now;
  for (const seenAt of [0, 3_000, 6_000]) {
    state.now = start + seenAt;
    state.head += 1; // one event appended, seen at this probe
    readiness.report();
  }
  state.now = start + 10_001;
  t.like(readiness.report(), { phase: 'lagging', lag: 3, behindSeconds: 10 });
  state.position += 1; // the event seen at 0 s is applied; the one seen at 3 s has waited 7 s
  t.like(readiness.report(), { phase: 'lagging', lag: 2, behindSeconds: 7 });
  state.now = start + 10_500;
  state.position += 1; // the one seen at 6 s has waited 4.5 s
  t.like(readiness.report(), { phase: 'ready', lag: 1, behindSeconds: 4.5 });
});

test('a head not confirmed with the log for longer than the time bound is log-unreachable, whatever the lag; ready again once confirmed within half the bound', (t) => {
  const { state, readiness } = fixture();
  state.position = 100;
  readiness.markCaughtUp();
  state.headAgeMs = 10_000;
  t.like(
    readiness.report(),
    { ready: true, phase: 'ready', lag: 0, headAgeSeconds: 10 },
    'up to the bound itself: a refresh may be a little late',
  );
  state.headAgeMs = 10_001;
  t.like(
    readiness.report(),
    { ready: false, phase: 'log-unreachable', lag: 0, headAgeSeconds: 10 },
    'no lag measured against a stale head means nothing',
  );
  state.headAgeMs = 30_000;
  t.like(readiness.report(), { ready: false, phase: 'log-unreachable', headAgeSeconds: 30 });
  state.headAgeMs = 5_001;
  t.like(
    readiness.report(),
    { ready: false, phase: 'log-unreachable', headAgeSeconds: 5 },
    'not yet within half the bound',
  );
  state.headAgeMs = 5_000;
  t.like(readiness.report(), { ready: true, phase: 'ready', headAgeSeconds: 5 });
  state.headAgeMs = 9_000;
  t.like(readiness.report(), { ready: true, phase: 'ready' }, 'ready stays ready up to the bound');
});

test('log-unreachable is told before lagging; once the log answers, a lag learned from the fresh head still counts', (t) => {
  const { state, readiness } = fixture();
  state.position = 100;
  readiness.markCaughtUp();
  state.headAgeMs = 20_000;
  state.head = 200;
  t.like(readiness.report(), { ready: false, phase: 'log-unreachable', lag: 100 });
  state.headAgeMs = 0; // confirmed again, and the writer had moved on
  t.like(readiness.report(), { ready: false, phase: 'lagging', lag: 100, headAgeSeconds: 0 });
  state.position = 200;
  t.like(readiness.report(), { ready: true, phase: 'ready', lag: 0 });
});

test('while catching up after start the head age is reported but catching-up is the phase; a log without head ages reports 0', (t) => {
  const { state, readiness } = fixture();
  state.headAgeMs = 60_000;
  t.like(readiness.report(), { ready: false, phase: 'catching-up', headAgeSeconds: 60 });
  const plain = new Readiness(
    () => 5,
    () => 5,
    { maxLagEvents: 50, maxLagMs: 10_000 },
    () => 0,
  );
  plain.markCaughtUp();
  t.like(plain.report(), { ready: true, phase: 'ready', headAgeSeconds: 0 });
});

test('a Kafka replica refreshes its head at least twice per time bound, so a reachable cluster never reads as log-unreachable', (t) => {
  t.is(followerHeadRefreshMs(10_000), 5_000, "the default bound keeps the follower's own 5 s");
  t.is(followerHeadRefreshMs(60_000), 5_000, 'a wider bound does not slow the head down');
  t.is(followerHeadRefreshMs(3_000), 1_500);
  t.is(followerHeadRefreshMs(0), 250, 'never a busy loop of look-ups');
  // Refreshed on time, the head's age stays within half the bound: ready, and ready again after an outage.
  const state = { position: 100, head: 100, now: 0, headAgeMs: 0 };
  const bound = 3_000;
  const readiness = new Readiness(
    () => state.position,
    () => state.head,
    { maxLagEvents: 50, maxLagMs: bound },
    () => state.now,
    () => state.headAgeMs,
  );
  readiness.markCaughtUp();
  state.headAgeMs = bound + 1;
  t.is(readiness.report().phase, 'log-unreachable');
  for (let age = 0; age <= followerHeadRefreshMs(bound); age += 100) {
    state.headAgeMs = age;
    t.is(readiness.report().phase, 'ready', `head ${age} ms old`);
  }
});

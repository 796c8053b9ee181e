/**
 * Readiness tells "catching up after start" from "a little behind under load" (ready)
 * and "lagging" (not ready), so it does not flap while writes stream in.
 */
import test from 'ava';
import { Readiness } from '../../src/replicas/Readiness.js';

function fixture() {
  const state = { position: 0, head: 100, now: 0 };
  const readiness = new Readiness(() => state.position, () => state.head, { maxLagEvents: 50, maxLagMs: 10_000 }, () => state.now);
  return { state, readiness };
}

test('not ready while catching up after start, whatever the lag; ready once the first catch-up is done', (t) => {
  const { state, readiness } = fixture();
  t.like(readiness.report(), { ready: false, phase: 'catching-up', position: 0, head: 100, lag: 100 });
  state.position = 100;
  t.like(readiness.report(), { ready: false, phase: 'catching-up', lag: 0 }, 'caught up is said by markCaughtUp, not guessed');
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

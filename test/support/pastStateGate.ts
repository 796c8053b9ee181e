import type { PastStateEvent, PastStateHooks } from '../../src/audit/PastStates.js';

/**
 * PastStates hooks for tests: every build is held at its yield point until released, and
 * what happens is recorded (`"<event> <position>"`, in order), with the most builds ever
 * running at once. Tests wait for recorded events, never for time.
 */
export function pastStateGate() {
  const events: string[] = [];
  let running = 0;
  let maxRunning = 0;
  let held: Array<() => void> = [];
  const waiters: Array<{ when: () => boolean; resolve: () => void }> = [];
  const check = () => {
    for (const w of [...waiters]) {
      if (w.when()) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  const until = (when: () => boolean): Promise<void> => {
    if (when()) return Promise.resolve();
    return new Promise((resolve) => waiters.push({ when, resolve }));
  };
  const hooks: PastStateHooks = {
    yieldPoint: () =>
      new Promise<void>((resolve) => {
        held.push(resolve);
        check();
      }),
    on: (event: PastStateEvent, position: number) => {
      if (event === 'started') maxRunning = Math.max(maxRunning, ++running);
      if ((event === 'built' || event === 'failed' || event === 'cancelled') && events.includes(`started ${position}`))
        running--;
      events.push(`${event} ${position}`);
      check();
    },
  };
  return {
    hooks,
    events,
    /** The recorded events other than `queued`. */
    get outcomes(): string[] {
      return events.filter((e) => !e.startsWith('queued'));
    },
    get maxRunning(): number {
      return maxRunning;
    },
    /** Resolves once `event` has been recorded. */
    seen: (event: string) => until(() => events.includes(event)),
    until,
    /** Resolves once a build waits at its yield point. */
    held: () => until(() => held.length > 0),
    /** Lets the builds waiting at their yield point go on. */
    release(): void {
      const go = held;
      held = [];
      for (const r of go) r();
    },
  };
}

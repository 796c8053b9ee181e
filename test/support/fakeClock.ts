import type { Clock } from '../../src/commands/clock.js';

/** A clock the test moves by hand. */
export class FakeClock implements Clock {
  constructor(public ms = Date.parse('2030-01-01T00:00:00Z')) {}
  now(): string {
    return new Date(this.ms).toISOString().replace(/Z$/, '000Z');
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

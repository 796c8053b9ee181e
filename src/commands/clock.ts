/**
 * Timestamps in NetBox's wire format: ISO 8601 UTC with microseconds and a trailing Z.
 * JavaScript clocks stop at milliseconds; the sub-millisecond digits come from the
 * monotonic clock, and successive readings never go backwards.
 */
export interface Clock {
  now(): string;
}

let last = '';

export const systemClock: Clock = {
  now() {
    const ms = Date.now();
    const micros = Math.floor((performance.now() % 1) * 1000);
    let stamp = new Date(ms).toISOString().slice(0, 23) + String(micros).padStart(3, '0') + 'Z';
    if (stamp <= last) stamp = bumpMicrosecond(last);
    last = stamp;
    return stamp;
  },
};

function bumpMicrosecond(stamp: string): string {
  const base = Date.parse(stamp.slice(0, 23) + 'Z');
  const micros = Number(stamp.slice(23, 26)) + 1;
  if (micros < 1000) return stamp.slice(0, 23) + String(micros).padStart(3, '0') + 'Z';
  return new Date(base + 1).toISOString().slice(0, 23) + '000Z';
}

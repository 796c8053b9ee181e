import type { ResumePoint } from './EventLog.js';

/** A resume point as stored by a subscriber, or null when absent or malformed: it is only a hint. */
export function asResumePoint(value: unknown): ResumePoint | null {
  const point = value as Partial<ResumePoint> | null | undefined;
  return typeof point?.position === 'number' && Number.isSafeInteger(point.position) && typeof point.cursor === 'string'
    ? { position: point.position, cursor: point.cursor }
    : null;
}

import { findIntactFrame, FrameReader, MAX_TORN_BYTES } from './frames.js';
import { type LogFileSystem, nodeFileSystem } from './logFileSystem.js';

/** A run of consecutive intact frames whose positions continue each other. */
export interface IntactRun {
  readonly kind: 'intact';
  readonly offset: number;
  /** Offset just past the run's last frame. */
  readonly end: number;
  readonly frames: number;
  readonly firstPosition: number;
  readonly lastPosition: number;
}

/** Bytes that are not an intact frame continuing the log. */
export interface Damage {
  readonly kind: 'damaged';
  readonly offset: number;
  /** Offset of the next intact frame, or the file's size. */
  readonly end: number;
  readonly reason: string;
  /**
   * True when the framing is broken (incomplete, impossible length, CRC mismatch): what an
   * interrupted write leaves. False for a CRC-valid frame whose content is wrong (not a
   * batch of events, positions that do not continue): no crash produces that.
   */
  readonly framing: boolean;
}

export type Segment = IntactRun | Damage;

export interface LogScan {
  readonly file: string;
  readonly size: number;
  /** The file in order: intact runs and damaged parts. */
  readonly segments: readonly Segment[];
  /** The first damage, where the log's usable part ends; null if there is none. */
  readonly firstDamage: Damage | null;
  /** The last position before the first damage (0 if the log is empty or damaged from the start). */
  readonly head: number;
  /**
   * clean: nothing to do. torn-tail: an interrupted write at the end, which open() cuts
   * (keeping the bytes aside). corrupt: open() refuses to start; repair moves everything
   * from the first damage on aside.
   */
  readonly verdict: 'clean' | 'torn-tail' | 'corrupt';
}

/** Reads the whole log without changing it and reports every damaged part. */
export async function scanLog(file: string, fs: LogFileSystem = nodeFileSystem): Promise<LogScan> {
  let fh;
  try {
    fh = await fs.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { file, size: 0, segments: [], firstDamage: null, head: 0, verdict: 'clean' };
    throw error;
  }
  try {
    const size = (await fh.stat()).size;
    const segments: Segment[] = [];
    let run: { offset: number; end: number; frames: number; firstPosition: number; lastPosition: number } | null = null;
    const endRun = () => {
      if (run) segments.push({ kind: 'intact', ...run });
      run = null;
    };
    let offset = 0;
    while (offset < size) {
      const reader = new FrameReader(fh, offset, () => size);
      let damage: { offset: number; reason: string; framing: boolean; resumeAt: number } | null = null;
      for (;;) {
        const frame = await reader.next();
        if (frame === null) {
          offset = size;
          break;
        }
        if ('torn' in frame) {
          damage = { offset: frame.offset, reason: frame.torn, framing: true, resumeAt: frame.offset + 1 };
          break;
        }
        const frameEnd = frame.offset + frame.size;
        const batch = batchPositions(frame.payload);
        if (typeof batch === 'string') {
          damage = { offset: frame.offset, reason: batch, framing: false, resumeAt: frameEnd };
          break;
        }
        const r = run as { lastPosition: number } | null;
        const expected = r ? r.lastPosition + 1 : segments.length === 0 ? 1 : batch.first;
        if (batch.first !== expected) {
          endRun();
          const why =
            segments.length === 0
              ? `the log starts at position ${batch.first}, not 1`
              : `positions jump from ${expected - 1} to ${batch.first}`;
          segments.push({ kind: 'damaged', offset: frame.offset, end: frame.offset, reason: why, framing: false });
        }
        if (run === null)
          run = {
            offset: frame.offset,
            end: frameEnd,
            frames: 0,
            firstPosition: batch.first,
            lastPosition: batch.first - 1,
          };
        const current = run as { end: number; frames: number; lastPosition: number };
        current.end = frameEnd;
        current.frames++;
        current.lastPosition = batch.last;
      }
      endRun();
      if (damage === null) break;
      const next = await findIntactFrame(fh, damage.resumeAt, size);
      segments.push({
        kind: 'damaged',
        offset: damage.offset,
        end: next ?? size,
        reason: damage.reason,
        framing: damage.framing,
      });
      offset = next ?? size;
    }
    const damages = segments.filter((s): s is Damage => s.kind === 'damaged');
    const firstDamage = damages[0] ?? null;
    const leading = segments[0]?.kind === 'intact' ? segments[0] : null;
    const last = segments.at(-1);
    const torn =
      damages.length === 1 &&
      last === firstDamage &&
      firstDamage.framing &&
      firstDamage.end === size &&
      size - firstDamage.offset <= MAX_TORN_BYTES;
    return {
      file,
      size,
      segments,
      firstDamage,
      head: leading ? leading.lastPosition : 0,
      verdict: firstDamage === null ? 'clean' : torn ? 'torn-tail' : 'corrupt',
    };
  } finally {
    await fh.close();
  }
}

/**
 * For the read-only tools (rebuild, export): they read the log up to its first bad frame,
 * which next to a running service may be a write in progress. Damage anywhere else would
 * make them work on a silently shortened log, so they refuse it with the scan's report.
 */
export async function refuseDamagedLog(file: string, fs: LogFileSystem = nodeFileSystem): Promise<void> {
  const scan = await scanLog(file, fs);
  if (scan.verdict === 'corrupt')
    throw new Error(
      `the event log is damaged; it would be read only up to position ${scan.head}.\n${describeScan(scan)}`,
    );
}

/** The positions a CRC-valid payload holds, or why it is not a batch of events. */
function batchPositions(payload: Buffer): { first: number; last: number } | string {
  let batch: unknown;
  try {
    batch = JSON.parse(payload.toString('utf8'));
  } catch (error) {
    return `frame is not valid JSON: ${(error as Error).message}`;
  }
  if (!Array.isArray(batch) || batch.length === 0) return 'frame is not a non-empty array of events';
  const first = (batch[0] as { position?: unknown } | null)?.position;
  if (typeof first !== 'number' || !Number.isSafeInteger(first) || first < 1)
    return `frame's first event has no valid position (${String(first)})`;
  for (let i = 1; i < batch.length; i++) {
    const position = (batch[i] as { position?: unknown } | null)?.position;
    if (position !== first + i)
      return `positions inside the frame are not dense: expected ${first + i}, found ${String(position)}`;
  }
  return { first, last: first + batch.length - 1 };
}

/** Human-readable report of a scan (verify-log's output). */
export function describeScan(scan: LogScan): string {
  // Plain integers: byte offsets are meant to be pasted into head/tail/truncate.
  const n = (value: number) => String(value);
  const lines = [`${scan.file}: ${n(scan.size)} bytes`];
  for (const s of scan.segments) {
    if (s.kind === 'intact') {
      lines.push(
        `  bytes ${n(s.offset)}..${n(s.end)}: ${n(s.frames)} intact frame(s), positions ${n(s.firstPosition)}..${n(s.lastPosition)}`,
      );
    } else if (s.end === s.offset) {
      lines.push(`  byte ${n(s.offset)}: BAD: ${s.reason}`);
    } else {
      lines.push(`  bytes ${n(s.offset)}..${n(s.end)}: BAD (${n(s.end - s.offset)} bytes): ${s.reason}`);
    }
  }
  const damage = scan.firstDamage;
  if (scan.verdict === 'clean') {
    lines.push(`OK: no damage; ${n(scan.head)} events.`);
  } else if (scan.verdict === 'torn-tail') {
    lines.push(
      `Torn tail: the last ${n(scan.size - damage!.offset)} bytes (from byte ${n(damage!.offset)}) are an interrupted write that was never acknowledged.`,
      `The service cuts them at its next start (position ${n(scan.head + 1)} would have started there), keeping them in a file beside the log. ${n(scan.head)} events are intact.`,
    );
  } else {
    const after = scan.segments.filter((s): s is IntactRun => s.kind === 'intact' && s.offset >= damage!.offset);
    const lost = after.reduce((sum, s) => sum + (s.lastPosition - s.firstPosition + 1), 0);
    lines.push(
      `CORRUPT: damage at byte ${n(damage!.offset)}, where position ${n(scan.head + 1)} should start. The service refuses to start.`,
      `The log is intact up to position ${n(scan.head)}; after the damage, ${n(lost)} more event(s) are readable in ${n(after.length)} run(s) of intact frames.`,
      `'npm run manage -- repair-log' moves bytes ${n(damage!.offset)}..${n(scan.size)} (${n(scan.size - damage!.offset)} bytes) into a file beside the log`,
      `(nothing is deleted); the service then starts with positions 1..${n(scan.head)}. Restoring the log from a backup may recover more.`,
    );
  }
  return lines.join('\n') + '\n';
}

import type { Context, Next } from 'koa';

/** The header that carries a log position between a client and the replicas it talks to. */
export const POSITION_HEADER = 'X-Netledger-Position';

export interface PositionSources {
  /** The last position applied to the read models. */
  position(): number;
  /** Resolves once the read models and the audit indexes hold every event up to `position`. */
  waitFor(position: number): Promise<void>;
  /** How long a read waits for a position before it is answered 503. */
  waitMs: number;
}

/**
 * Read-your-writes across replicas. Every response says, in X-Netledger-Position, the
 * log position its read models had reached when it was answered: for a write, a
 * position at or after its own last event (a write is answered only once projected).
 * A read (GET, HEAD) that carries the header is answered only once this process has
 * applied that position, waiting at most `waitMs`; then it is answered 503 with
 * Retry-After, saying how far this replica is. A client that echoes the position of its
 * last write (or read) never reads older state from any replica.
 *
 * A response that already names a position (a write the writer answered, forwarded by
 * a replica) keeps the writer's.
 */
export function readPosition(sources: PositionSources) {
  return async (ctx: Context, next: Next) => {
    const asked = ctx.get(POSITION_HEADER);
    if (asked !== '' && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      if (!/^\d{1,15}$/.test(asked.trim())) {
        ctx.status = 400;
        ctx.body = { [POSITION_HEADER]: ['Enter a log position (a non-negative integer).'] };
        return;
      }
      const wanted = Number(asked.trim());
      if (!(await reached(sources, wanted))) {
        ctx.status = 503;
        ctx.set('Retry-After', '1');
        ctx.set('Cache-Control', 'no-store');
        ctx.set(POSITION_HEADER, String(sources.position()));
        ctx.body = { detail: `This replica has applied the change log up to position ${sources.position()}; position ${wanted} has not reached it yet. Retry shortly.` };
        return;
      }
    }
    await next();
    if (!ctx.response.get(POSITION_HEADER)) ctx.set(POSITION_HEADER, String(sources.position()));
  };
}

async function reached(sources: PositionSources, wanted: number): Promise<boolean> {
  if (wanted <= sources.position()) {
    await sources.waitFor(wanted); // the audit indexes may be a step behind the read models
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), sources.waitMs)));
  try {
    return await Promise.race([sources.waitFor(wanted).then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

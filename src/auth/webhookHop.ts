import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The header a webhook delivery carries: how many webhook deliveries led to it, signed
 * with SECRET_KEY, so that a write the service receives with it (the receiver being the
 * service, directly or behind a proxy) records that depth in its events and the
 * delivery worker stops the chain. Signed and short-lived, so a client cannot mark its
 * own writes as made by a webhook to keep them from firing webhooks.
 */
export const WEBHOOK_HOP_HEADER = 'X-Netledger-Webhook-Hop';

/** How long a token is honoured after its attempt's deadline (the receiver's write may arrive late). */
const GRACE_MS = 60_000;

/** Signs and reads hop tokens: `<depth>.<expires, ms since the epoch>.<signature>`. */
export class WebhookHops {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = createHash('sha256').update(`netledger webhook hop\0${secretKey}`).digest();
  }

  /** A token for a delivery of a change at `depth - 1`, honoured until `deadline` (plus grace). */
  token(depth: number, deadline: number): string {
    const claim = `${depth}.${deadline + GRACE_MS}`;
    return `${claim}.${this.sign(claim)}`;
  }

  /** The depth a request's header carries, or 0 without a header or with one forged, damaged or expired. */
  depth(header: string | undefined, now: number = Date.now()): number {
    const match = /^(\d{1,3})\.(\d{1,16})\.([0-9a-f]{64})$/.exec(header?.trim() ?? '');
    if (!match) return 0;
    const given = Buffer.from(match[3], 'hex');
    if (!timingSafeEqual(given, Buffer.from(this.sign(`${match[1]}.${match[2]}`), 'hex'))) return 0;
    return Number(match[2]) >= now ? Number(match[1]) : 0;
  }

  private sign(claim: string): string {
    return createHmac('sha256', this.key).update(claim).digest('hex');
  }
}

import type { Context, Next } from 'koa';

import { WEBHOOK_HOP_HEADER, WebhookHops } from '../../auth/webhookHop.js';

/**
 * A request a webhook delivery sent (its signed hop header, see auth/webhookHop.ts) has its
 * changes marked with the delivery's depth, so the delivery worker can end the chain. A
 * header that is missing, forged or expired counts as none: the request is a client's.
 */
export function webhookHop(secretKey: string) {
  const hops = new WebhookHops(secretKey);
  return async (ctx: Context, next: Next) => {
    const depth = hops.depth(ctx.get(WEBHOOK_HOP_HEADER) || undefined);
    if (depth > 0) ctx.state.webhookDepth = depth;
    return next();
  };
}

import type { Middleware } from 'koa';

import { catchUpGate } from '../../replicas/catchUpGate.js';
import { forwardWrites } from '../../replicas/forwardWrites.js';
import { readPosition } from '../../replicas/readPosition.js';
import type { Services } from '../Services.js';
import { requestOrigin } from './authenticate.js';

/**
 * The middleware that makes a process one of several serving the same log, in the order
 * a request meets them: the position header and read-your-writes wait (every role), then,
 * on a read replica, writes forwarded to the writer and everything else held back until
 * the first catch-up is done.
 */
export function replicaMiddleware(services: Services): Middleware[] {
  const { config, projector, audit, readiness } = services;
  const chain: Middleware[] = [
    readPosition({
      position: () => projector.position,
      waitFor: async (position, signal) => {
        await projector.waitFor(position, { signal });
        await audit?.log.waitFor(position, signal);
      },
      positionOfRequest: (requestId, signal) =>
        new Promise<number>((resolve) => {
          if (!audit) return; // no audit index: never found, the wait runs out
          const check = () => {
            const positions = audit.log.index.requestPositions(requestId);
            if (positions.length === 0) return;
            stop();
            resolve(positions[positions.length - 1]!);
          };
          const off = audit.log.onChange(check);
          const stop = () => {
            off();
            signal.removeEventListener('abort', stop);
          };
          signal.addEventListener('abort', stop);
          check();
        }),
      waitMs: config.positionWaitMs,
    }),
  ];
  if (config.role === 'reader') {
    chain.push(
      forwardWrites({
        writerUrl: config.writerUrl,
        answerTimeoutMs: config.writerTimeoutMs,
        clientAddress: (ctx) => services.auth.clientAddress(requestOrigin(ctx)),
        logger: services.logger,
      }),
    );
    if (readiness) chain.push(catchUpGate(readiness));
  }
  return chain;
}

import { createServer, type RequestListener, type Server } from 'node:http';

import type { Config } from '../config.js';

/**
 * The HTTP server with limits on what slow or numerous clients may hold: deadlines for
 * the headers and the whole request (Node answers 408 and closes), an idle keep-alive
 * limit, and a cap on open connections (beyond it a new connection is closed at once).
 */
export function createHttpServer(config: Config, listener: RequestListener): Server {
  const deadlines = [config.headersTimeoutMs, config.requestTimeoutMs].filter((ms) => ms > 0);
  const server = createServer(
    {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      // Node checks both deadlines only at this interval (30 s by default), which would
      // let a client overstay a short deadline by that much.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(Math.min(30_000, ...deadlines) / 4))),
    },
    listener,
  );
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  if (config.maxConnections > 0) server.maxConnections = config.maxConnections;
  return server;
}

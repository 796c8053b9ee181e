import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';

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
  const waiting = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    waiting.add(socket);
    socket.once('close', () => waiting.delete(socket));
  });
  server.on('request', (request: IncomingMessage) => waiting.delete(request.socket));
  unused.set(server, waiting);
  return server;
}

/** Per server: the connections that have not sent a request yet. */
const unused = new WeakMap<Server, Set<Socket>>();

/**
 * Stops accepting connections and resolves once the open ones have ended. Node's close()
 * ends idle keep-alive connections but waits for one that never sent a request (a client's
 * spare connection: a browser's preconnect, fetch's after an aborted stream) until the
 * headers deadline ends it, which held a shutdown for up to a minute: those are ended too.
 */
export function closeHttpServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const socket of unused.get(server) ?? []) socket.destroy();
  return closed;
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { WebhookWorker } from '../../src/webhooks/WebhookWorker.js';

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
}

/**
 * A loopback webhook receiver: records every request it accepts and resolves waiters as
 * deliveries arrive. While `failWith` is set it answers that status instead (the request
 * is recorded in `refused`); `stop()` and `start()` take it off the network and back on
 * the same port.
 */
export class Receiver {
  readonly received: Received[] = [];
  readonly refused: Received[] = [];
  failWith: number | null = null;
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  private server: http.Server | null = null;
  port = 0;

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await receiver.start();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = JSON.parse(body);
        } catch {
          // not JSON
        }
        const entry = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json };
        if (this.failWith !== null) {
          this.refused.push(entry);
          res.writeHead(this.failWith).end('receiver down');
          return;
        }
        this.received.push(entry);
        res.writeHead(204).end();
        this.waiters = this.waiters.filter((w) => (this.received.length >= w.count ? (w.resolve(), false) : true));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Resolves once `count` deliveries have been accepted in all. */
  receivedCount(count: number): Promise<Received[]> {
    if (this.received.length >= count) return Promise.resolve(this.received.slice(0, count));
    return new Promise((resolve) =>
      this.waiters.push({ count, resolve: () => resolve(this.received.slice(0, count)) }),
    );
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Resolves once `check` holds for the worker's records (re-checked at each change they see). */
export async function until(worker: WebhookWorker, check: () => boolean): Promise<void> {
  while (!check()) await worker.changed();
}

import http from 'node:http';

import { ADMIN_TOKEN, type ApiResponse } from './startService.js';

export interface RequestSpec {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Sends every request at once, each on its own connection, and answers in request
 * order. node:http rather than fetch: fetch gives up on a connection not established
 * within 10 s, which a burst on a loaded machine can exceed without anything being wrong.
 */
export function concurrentRequests(baseUrl: string, requests: RequestSpec[]): Promise<ApiResponse[]> {
  const agent = new http.Agent({ keepAlive: false });
  return Promise.all(requests.map((spec) => send(agent, baseUrl, spec))).finally(() => agent.destroy());
}

function send(
  agent: http.Agent,
  baseUrl: string,
  { method, path, body, headers = {} }: RequestSpec,
): Promise<ApiResponse> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(path, baseUrl),
      {
        method,
        agent,
        headers: {
          Authorization: `Token ${ADMIN_TOKEN}`,
          ...(payload === undefined
            ? {}
            : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: response.statusCode ?? 0, headers: responseHeaders, body: parsed });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

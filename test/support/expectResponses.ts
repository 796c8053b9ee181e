/** Requests a test expects to succeed: the body, or an error naming the path, status and body. */
import type { TestService } from './startService.js';

export async function post(service: TestService, path: string, body: unknown): Promise<any> {
  const response = await service.api('POST', path, body);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function list(service: TestService, path: string): Promise<any[]> {
  const response = await service.api('GET', path);
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.results;
}

export const ids = (objects: Array<{ id: number }>) => objects.map((o) => o.id);

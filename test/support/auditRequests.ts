import type { ApiResponse, TestService } from './startService.js';

let counter = 0;
/** A name no other test of this process uses. */
export function unique(prefix: string): string {
  counter++;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

export function requestIdOf(response: ApiResponse): string {
  const id = response.headers.get('x-request-id');
  if (!id) throw new Error('response without X-Request-ID');
  return id;
}

export async function must(response: Promise<ApiResponse>, status: number): Promise<ApiResponse> {
  const r = await response;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r;
}

/** The object changes of one request, oldest first. */
export async function changesOf(service: TestService, requestId: string): Promise<any[]> {
  const r = await must(service.api('GET', `/api/extras/object-changes/?request_id=${requestId}&limit=1000`), 200);
  return [...r.body.results].reverse();
}

/** A site, plus a device in it with `interfaces` interfaces (each created by its own request). */
export async function makeDevice(service: TestService, interfaces = 0) {
  const name = unique('dev');
  const site = (
    await must(service.api('POST', '/api/dcim/sites/', { name: `${name}-site`, slug: `${name}-site` }), 201)
  ).body;
  const manufacturer = (
    await must(service.api('POST', '/api/dcim/manufacturers/', { name: `${name}-mfr`, slug: `${name}-mfr` }), 201)
  ).body;
  const deviceType = (
    await must(
      service.api('POST', '/api/dcim/device-types/', {
        manufacturer: manufacturer.id,
        model: `${name}-model`,
        slug: `${name}-model`,
      }),
      201,
    )
  ).body;
  const role = (
    await must(
      service.api('POST', '/api/dcim/device-roles/', { name: `${name}-role`, slug: `${name}-role`, color: 'ff0000' }),
      201,
    )
  ).body;
  const device = (
    await must(
      service.api('POST', '/api/dcim/devices/', {
        name,
        device_type: deviceType.id,
        device_role: role.id,
        site: site.id,
      }),
      201,
    )
  ).body;
  const ifaces = [];
  for (let i = 0; i < interfaces; i++) {
    ifaces.push(
      (
        await must(
          service.api('POST', '/api/dcim/interfaces/', { device: device.id, name: `eth${i}`, type: '1000base-t' }),
          201,
        )
      ).body,
    );
  }
  return { site, manufacturer, deviceType, role, device, interfaces: ifaces };
}

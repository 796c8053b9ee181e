// throwaway: server CPU per request with autocannon in a child process
import os from 'node:os';
import { api, cpuMs, HEADERS, startBenchService } from './inProcessService.js';
import { cannon } from './cannon.js';
const service = await startBenchService('prof');
const url = service.url;
const site = await api(url, 'POST', '/api/dcim/sites/', { name: 's1', slug: 's1' });
const mfr = await api(url, 'POST', '/api/dcim/manufacturers/', { name: 'm', slug: 'm' });
const type = await api(url, 'POST', '/api/dcim/device-types/', { manufacturer: mfr.id, model: 't', slug: 't' });
const role = await api(url, 'POST', '/api/dcim/device-roles/', { name: 'r', slug: 'r', color: 'ff0000' });
const rack = await api(url, 'POST', '/api/dcim/racks/', { name: 'r1', site: site.id });
const devs = await api(url, 'POST', '/api/dcim/devices/', Array.from({ length: 100 }, (_, i) => ({ name: `d${i}`, device_type: type.id, device_role: role.id, site: site.id, rack: rack.id, status: 'active' })));
for (let k = 0; k < 10; k++) await api(url, 'POST', '/api/dcim/interfaces/', devs.map((d: any) => ({ device: d.id, name: `eth${k}`, type: '1000base-t' })));
const ips = [];
for (let i = 0; i < 1000; i++) ips.push({ address: `10.0.${i >> 8}.${i & 255}/16`, status: 'active' });
await api(url, 'POST', '/api/ipam/ip-addresses/', ips);
const paths = (process.env.PATHS ?? `/api/dcim/devices/?limit=50,/api/dcim/devices/${devs[7].id}/,/api/dcim/sites/?name__ic=s,/api/dcim/interfaces/?limit=1000,/api/dcim/devices/?limit=1000`).split(',');
for (const path of paths) {
  await cannon({ url, connections: 10, duration: 2, headers: HEADERS, scenario: { kind: 'get', path } });
  const c0 = cpuMs();
  const r = await cannon({ url, connections: 10, duration: Number(process.env.DURATION ?? 5), headers: HEADERS, scenario: { kind: 'get', path } });
  const cpu = cpuMs() - c0;
  console.log(`${path.padEnd(40)} ${String(Math.round(r.requests.average)).padStart(6)} req/s  p50 ${r.latency.p50} ms  ${(cpu / r.requests.total).toFixed(3)} CPU ms/req  non2xx ${r.non2xx}  load ${os.loadavg()[0].toFixed(1)}`);
}
await service.stop();

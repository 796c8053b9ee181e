// throwaway profiling harness (not committed)
import { api, cpuMs, startBenchService } from './inProcessService.js';
const N = Number(process.env.N ?? 2000);
const service = await startBenchService('prof');
const url = service.url;
const site = await api(url, 'POST', '/api/dcim/sites/', { name: 's1', slug: 's1' });
const mfr = await api(url, 'POST', '/api/dcim/manufacturers/', { name: 'm', slug: 'm' });
const type = await api(url, 'POST', '/api/dcim/device-types/', { manufacturer: mfr.id, model: 't', slug: 't' });
const role = await api(url, 'POST', '/api/dcim/device-roles/', { name: 'r', slug: 'r', color: 'ff0000' });
const rack = await api(url, 'POST', '/api/dcim/racks/', { name: 'r1', site: site.id });
const devs = await api(url, 'POST', '/api/dcim/devices/', Array.from({ length: 100 }, (_, i) => ({ name: `d${i}`, device_type: type.id, device_role: role.id, site: site.id, rack: rack.id, status: 'active' })));
for (let k = 0; k < 10; k++) {
  await api(url, 'POST', '/api/dcim/interfaces/', devs.map((d: any) => ({ device: d.id, name: `eth${k}`, type: '1000base-t' })));
}
const path = process.env.PATH_Q ?? '/api/dcim/devices/?limit=50';
for (let i = 0; i < 200; i++) await api(url, 'GET', path);
const t0 = performance.now();
const c0 = cpuMs();
for (let i = 0; i < N; i++) await api(url, 'GET', path);
const c1 = cpuMs();
console.log(`${path}: ${((c1 - c0) / N).toFixed(3)} CPU ms/req (incl. client fetch), wall ${((performance.now() - t0) / N).toFixed(3)} ms`);
await service.stop();

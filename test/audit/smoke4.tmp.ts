import { startService, ADMIN_TOKEN } from '../support/startService.js';
const s = await startService();
try {
  const res = await fetch(`${s.url}/api/extras/object-changes/stream/`, { headers: { Authorization: `Token ${ADMIN_TOKEN}` } });
  console.log('status', res.status);
  const reader = (res.body as any).getReader();
  const dec = new TextDecoder();
  setTimeout(async () => { const r = await s.api('POST', '/api/dcim/sites/', { name: 'Z', slug: 'z' }); console.log('posted', r.status); }, 300);
  const t0 = Date.now();
  while (Date.now() - t0 < 2000) {
    const { value, done } = await Promise.race([reader.read(), new Promise<any>((r) => setTimeout(() => r({ value: undefined, done: false }), 500))]);
    if (done) { console.log('done'); break; }
    if (value) console.log('chunk', JSON.stringify(dec.decode(value)).slice(0, 200));
  }
  reader.cancel();
} finally { await s.close(); }

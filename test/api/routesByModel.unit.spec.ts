import type { AddressInfo } from 'node:net';

import test from 'ava';
import Koa from 'koa';

import { RoutesByModel } from '../../src/api/RoutesByModel.js';

async function serve(routes: RoutesByModel) {
  const app = new Koa();
  app.use(routes.routes());
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = 'fell through';
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    get: async (path: string, method = 'GET') => {
      const r = await fetch(base + path, { method });
      return `${r.status} ${await r.text()}`;
    },
    close: () => server.close(),
  };
}

test('a request reaches the routes of its model only, parameters and methods included', async (t) => {
  const routes = new RoutesByModel();
  routes.get('/api/dcim/devices/', (ctx) => void (ctx.body = 'device list'));
  routes.get('/api/dcim/devices/:id/', (ctx) => void (ctx.body = `device ${ctx.params.id}`));
  routes.get('/api/dcim/devices/:id/trace/', (ctx) => void (ctx.body = `trace ${ctx.params.id}`));
  routes.get('/api/dcim/device-types/', (ctx) => void (ctx.body = 'type list'));
  routes.all('/api/dcim/devices/', (ctx) => void ((ctx.status = 405), (ctx.body = 'no')));
  const http = await serve(routes);
  t.teardown(() => http.close());
  t.is(await http.get('/api/dcim/devices/'), '200 device list');
  t.is(await http.get('/api/dcim/devices/7/'), '200 device 7');
  t.is(await http.get('/api/dcim/devices/7/trace/'), '200 trace 7');
  t.is(await http.get('/api/dcim/device-types/'), '200 type list');
  t.is(await http.get('/api/dcim/devices/', 'DELETE'), '405 no');
  // Paths are matched without regard to case, as the router does.
  t.is(await http.get('/API/DCIM/Devices/3/'), '200 device 3');
});

test('a path under no model, or under a model without that route, goes on to the next middleware', async (t) => {
  const routes = new RoutesByModel();
  routes.get('/api/dcim/devices/', (ctx) => void (ctx.body = 'device list'));
  const http = await serve(routes);
  t.teardown(() => http.close());
  for (const path of ['/', '/api/', '/api/dcim/', '/api/dcim/sites/', '/api/dcim/devices/1/napalm/', '/metrics']) {
    t.is(await http.get(path), '404 fell through', path);
  }
});

test('a route whose model path has a parameter is refused when declared', (t) => {
  const routes = new RoutesByModel();
  t.throws(() => routes.get('/api/:app/devices/', () => undefined), { message: /fixed/ });
  t.throws(() => routes.get('/metrics', () => undefined), { message: /fixed/ });
});

/**
 * /api/dcim/connected-device/?peer_device=<name>&peer_interface=<name>: the device at the
 * far end of a device's interface (what LLDP-driven tooling asks to check its cabling),
 * found by tracing the interface's cable path.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { NotFoundError } from '../commands/errors.js';
import { destinations, PathReader, pathFrom } from '../models/dcim/cabling/tracePath.js';
import { lookupView } from '../projections/lookupView.js';
import type { Services } from './Services.js';
import { and } from './query/ListQueryCompiler.js';
import { viewScope } from './permissions.js';

export const CONNECTED_DEVICE_PATH = 'connected-device';

export function connectedDeviceRoute(services: Services): Router {
  const router = new Router();
  router.get(`/api/dcim/${CONNECTED_DEVICE_PATH}/`, (ctx) => connectedDevice(services, ctx));
  router.all(`/api/dcim/${CONNECTED_DEVICE_PATH}/`, (ctx) => {
    ctx.set('Allow', 'GET, HEAD, OPTIONS');
    if (ctx.method === 'OPTIONS') {
      ctx.body = { name: 'Connected Device', description: '', renders: ['application/json'], parses: ['application/json'] };
      return;
    }
    ctx.status = 405;
    ctx.body = { detail: `Method "${ctx.method}" not allowed.` };
  });
  return router;
}

async function connectedDevice(services: Services, ctx: Context): Promise<void> {
  const query = new URLSearchParams(ctx.querystring);
  const deviceName = query.get('peer_device');
  const interfaceName = query.get('peer_interface');
  if (!deviceName || !interfaceName) {
    ctx.status = 400;
    ctx.body = { detail: 'Request must include "peer_device" and "peer_interface" filters.' };
    return;
  }
  const devices = services.registry.get('dcim.device');
  const interfaces = services.registry.get('dcim.interface');
  const [device] = await services.store.find(devices.key, and(await viewScope(ctx, services.config, devices), { name: deviceName }), { limit: 1 });
  if (!device) throw new NotFoundError();
  const [peer] = await services.store.find(interfaces.key, and(await viewScope(ctx, services.config, interfaces), { device: device.id, name: interfaceName }), { limit: 1 });
  if (!peer) throw new NotFoundError();
  const path = await pathFrom(new PathReader(lookupView(services.store)), interfaces.key, peer as never);
  const [end] = destinations(path);
  if (!end || end.object_type !== interfaces.key) throw new NotFoundError();
  const local = await services.store.get(interfaces.key, end.object_id);
  if (!local || typeof local.device !== 'number') throw new NotFoundError();
  const [found] = await services.store.find(devices.key, and(await viewScope(ctx, services.config, devices), { id: local.device }), { limit: 1 });
  if (!found) throw new NotFoundError();
  const [rendered] = await services.serializer.render(devices, [found], 'complete', { baseUrl: ctx.state.baseUrl as string });
  ctx.body = rendered;
}

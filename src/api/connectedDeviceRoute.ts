/**
 * /api/dcim/connected-device/?peer_device=<name>&peer_interface=<name>: the device at the
 * far end of a device's interface (what LLDP-driven tooling asks to check its cabling),
 * found by tracing the interface's cable path.
 */
import Router from '@koa/router';
import type { Context } from 'koa';

import { NotFoundError } from '../errors/requestErrors.js';
import { destinations, pathFrom, PathReader } from '../models/dcim/cabling/tracePath.js';
import { lookupView } from '../projections/lookupView.js';
import { otherMethods } from './otherMethods.js';
import type { Services } from './Services.js';
import { visibleObject } from './visibleObject.js';

export const CONNECTED_DEVICE_PATH = 'connected-device';

export function connectedDeviceRoute(services: Services): Router {
  const router = new Router();
  router.get(`/api/dcim/${CONNECTED_DEVICE_PATH}/`, (ctx) => connectedDevice(services, ctx));
  otherMethods(services, router, `/api/dcim/${CONNECTED_DEVICE_PATH}/`, 'GET, HEAD, OPTIONS', 'Connected Device');
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
  const device = await visibleObject(services, devices, ctx, { name: deviceName });
  const peer = await visibleObject(services, interfaces, ctx, { device: device.id, name: interfaceName });
  const path = await pathFrom(new PathReader(lookupView(services.store)), interfaces.key, peer);
  const [end] = destinations(path);
  if (!end || end.object_type !== interfaces.key) throw new NotFoundError();
  const local = await services.store.get(interfaces.key, end.object_id);
  if (!local || typeof local.device !== 'number') throw new NotFoundError();
  const found = await visibleObject(services, devices, ctx, local.device);
  const [rendered] = await services.serializer.render(devices, [found], 'complete', {
    baseUrl: ctx.state.baseUrl as string,
  });
  ctx.body = rendered;
}

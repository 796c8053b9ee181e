/**
 * GET /api/dcim/racks/<id>/elevation/: the units of one face of a rack and the devices
 * filling them, as a paginated JSON list or (render=svg) as a drawing.
 */
import type { DetailView, DetailViewRequest } from '../detailEndpoints.js';
import type { GenericListItem } from '../fieldDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { ELEVATION_DEFAULTS, type ElevationQuery, parseElevationQuery } from './rackElevationQuery.js';
import { drawRackElevation } from './rackElevationSvg.js';
import { devicesOnFace, matchesUnit, type MountedDevice, type RackShape, rackUnits } from './rackUnits.js';

const FACE_LABELS = { front: 'Front', rear: 'Rear' } as const;
/** How a device appears on a unit: NetBox's nested device. */
const DEVICE_FIELDS = ['id', 'url', 'display', 'name'];

interface Mounted extends MountedDevice {
  stored: StoredObject;
}

/** The rack's devices with their types' height and depth, in id order. */
async function mountedDevices(rack: StoredObject, request: DetailViewRequest): Promise<Mounted[]> {
  const devices = await request.view.find('dcim.device', { rack: rack.id });
  const typeIds = [...new Set(devices.map((d) => d.device_type).filter((id): id is number => typeof id === 'number'))];
  const types = new Map((await request.view.find('dcim.devicetype', { id: { $in: typeIds } })).map((t) => [t.id, t]));
  return devices
    .sort((a, b) => a.id - b.id)
    .map((d) => {
      const type = types.get(d.device_type as number);
      return {
        id: d.id,
        position: d.position == null ? null : Number(d.position),
        face: typeof d.face === 'string' && d.face !== '' ? d.face : null,
        height: Number(type?.u_height ?? 0),
        fullDepth: type?.is_full_depth === true,
        stored: d,
      };
    });
}

function shapeOf(rack: StoredObject): RackShape {
  return { u_height: Number(rack.u_height), desc_units: rack.desc_units === true };
}

async function elevationJson(
  rack: StoredObject,
  query: ElevationQuery,
  devices: Mounted[],
  request: DetailViewRequest,
) {
  const visible = await request.viewable(
    'dcim.device',
    devices.map((d) => d.id),
  );
  let units = rackUnits(shapeOf(rack), devices, {
    face: query.face,
    exclude: query.exclude,
    expandDevices: query.expand_devices,
    visible,
  });
  if (query.q !== null) units = units.filter((u) => matchesUnit(u, query.q!));
  const page = request.paginate(units);
  const refs: GenericListItem[] = page.results
    .filter((u) => u.device !== null)
    .map((u) => ({ object_type: 'dcim.device', object_id: u.device! }));
  const nested = await request.nested(refs, DEVICE_FIELDS);
  const byId = new Map(nested.filter((n): n is Record<string, unknown> => n !== null).map((n) => [n.id as number, n]));
  return {
    ...page,
    results: page.results.map((u) => ({
      id: u.id,
      name: u.name,
      face: { value: u.face, label: FACE_LABELS[u.face] },
      device: u.device === null ? null : (byId.get(u.device) ?? null),
      occupied: u.occupied,
      display: u.name,
    })),
  };
}

async function elevationSvg(
  rack: StoredObject,
  query: ElevationQuery,
  devices: Mounted[],
  request: DetailViewRequest,
): Promise<string> {
  // NetBox draws every device of the face (excluding none) and passes no margin width on.
  const shown = devicesOnFace(devices, query.face, null) as Mounted[];
  const visible = await request.viewable(
    'dcim.device',
    shown.map((d) => d.id),
  );
  const nested = await request.nested(
    shown.map((d) => ({ object_type: 'dcim.device', object_id: d.id })),
    DEVICE_FIELDS,
  );
  const highlighting = query.highlight.length > 0;
  const highlighted = (d: Mounted) =>
    query.highlight.some(([attribute, value]) => attribute in d.stored && String(d.stored[attribute]) === value);
  return drawRackElevation({
    rackName: String(rack.name),
    face: query.face,
    u_height: Number(rack.u_height),
    desc_units: rack.desc_units === true,
    unit_width: query.unit_width,
    unit_height: query.unit_height,
    legend_width: query.legend_width,
    margin_width: ELEVATION_DEFAULTS.margin_width,
    devices: shown.map((d, i) => {
      const form = visible.has(d.id) ? nested[i] : null;
      return {
        position: d.position!,
        height: d.height,
        onFace: d.face === query.face,
        label: form ? String(form.display) : null,
        url: form ? String(form.url) : null,
        dimmed: highlighting && !(visible.has(d.id) && highlighted(d)),
      };
    }),
  });
}

const integer = { type: 'integer' };
const bool = { type: 'boolean' };

export const rackElevationView: DetailView = {
  path: 'elevation',
  summary: 'Rack elevation: the units of one face and the devices filling them, as a list or an SVG drawing.',
  parameters: [
    { name: 'q', description: 'Only units whose number or name contains this text.', schema: { type: 'string' } },
    {
      name: 'face',
      description: 'The rack face (default front).',
      schema: { type: 'string', enum: ['front', 'rear'], default: 'front' },
    },
    {
      name: 'render',
      description: 'json (default) or svg.',
      schema: { type: 'string', enum: ['json', 'svg'], default: 'json' },
    },
    {
      name: 'unit_width',
      description: 'Width of a unit in the drawing, in pixels.',
      schema: { ...integer, default: ELEVATION_DEFAULTS.unit_width },
    },
    {
      name: 'unit_height',
      description: 'Height of a unit in the drawing, in pixels.',
      schema: { ...integer, default: ELEVATION_DEFAULTS.unit_height },
    },
    {
      name: 'legend_width',
      description: 'Width of the unit legend, in pixels.',
      schema: { ...integer, default: ELEVATION_DEFAULTS.legend_width },
    },
    {
      name: 'margin_width',
      description: 'Accepted; the drawing keeps its default margin.',
      schema: { ...integer, default: ELEVATION_DEFAULTS.margin_width },
    },
    { name: 'exclude', description: 'A device id to leave out of the list.', schema: integer },
    {
      name: 'expand_devices',
      description: 'List a device on every unit it fills (default true), else on its lowest unit only.',
      schema: { ...bool, default: true },
    },
    {
      name: 'include_images',
      description: 'Accepted; device images are not drawn.',
      schema: { ...bool, default: true },
    },
    {
      name: 'highlight',
      description: 'attribute:value of devices to highlight in the drawing (repeatable).',
      schema: { type: 'string' },
    },
  ],
  responses: {
    'application/json': {
      type: 'object',
      properties: {
        count: integer,
        next: { type: ['string', 'null'] },
        previous: { type: ['string', 'null'] },
        results: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'number' },
              name: { type: 'string' },
              face: {
                type: 'object',
                properties: { value: { type: 'string', enum: ['front', 'rear'] }, label: { type: 'string' } },
              },
              device: {
                type: ['object', 'null'],
                properties: {
                  id: integer,
                  url: { type: 'string' },
                  display: { type: 'string' },
                  name: { type: ['string', 'null'] },
                },
              },
              occupied: bool,
              display: { type: 'string' },
            },
          },
        },
      },
    },
    'image/svg+xml': { type: 'string' },
  },
  async respond(rack, request) {
    const parsed = parseElevationQuery(request.query);
    if ('errors' in parsed) return request.invalid(parsed.errors);
    const devices = await mountedDevices(rack, request);
    if (parsed.query.render === 'svg')
      return { body: await elevationSvg(rack, parsed.query, devices, request), contentType: 'image/svg+xml' };
    return { body: await elevationJson(rack, parsed.query, devices, request) };
  },
};

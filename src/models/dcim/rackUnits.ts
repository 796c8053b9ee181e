/**
 * The units of a rack face and what fills them, as NetBox lists them: two entries per U
 * (the unit and its upper half, e.g. U41 and U41.5), from the top unless the rack numbers
 * its units from the top down (`desc_units`), then from U1 up.
 *
 * Positions are worked in half units (integers) so that no sum of 0.5 steps drifts.
 */
import type { RackFace } from './rackElevationQuery.js';

export interface RackShape {
  u_height: number;
  desc_units: boolean;
}

/** A device mounted in the rack, with what its type says about the space it takes. */
export interface MountedDevice {
  id: number;
  /** Its lowest unit (e.g. 1 or 40.5); null when not mounted at a position. */
  position: number | null;
  face: string | null;
  /** The type's height in U (0 for a 0U device). */
  height: number;
  /** A full-depth device fills both faces. */
  fullDepth: boolean;
}

export interface RackUnit {
  /** The unit's number: 42, 41.5 ... */
  id: number;
  /** The number as NetBox writes it (Python's str of a decimal), which `q` searches. */
  idText: string;
  name: string;
  face: RackFace;
  /** The device filling the unit, if the caller may see it. */
  device: number | null;
  occupied: boolean;
}

export interface RackUnitOptions {
  face: RackFace;
  exclude: number | null;
  /** Every unit a device fills carries it; otherwise only its lowest. */
  expandDevices: boolean;
  /** The devices the caller may see; the others still occupy their units. Absent: all. */
  visible?: Set<number>;
}

/** The half-unit indexes of the rack in listing order (index 2u for unit u). */
function halfUnits(rack: RackShape): number[] {
  const count = rack.u_height * 2;
  const ascending = Array.from({ length: count }, (_, i) => i + 2);
  return rack.desc_units ? ascending : ascending.reverse();
}

function unitText(half: number, first: boolean, rack: RackShape): string {
  // NetBox counts descending racks from the integer 1, so their first unit prints as '1';
  // every other number carries one decimal place.
  if (first && rack.desc_units) return String(half / 2);
  return (half / 2).toFixed(1);
}

/** The devices listed on `face`: mounted at a position, taller than 0U, on this face or full depth. */
export function devicesOnFace(devices: MountedDevice[], face: RackFace, exclude: number | null): MountedDevice[] {
  return devices.filter(
    (d) =>
      d.id !== exclude && d.position !== null && d.position > 0 && d.height > 0 && (d.face === face || d.fullDepth),
  );
}

export function rackUnits(rack: RackShape, devices: MountedDevice[], options: RackUnitOptions): RackUnit[] {
  const units = new Map<number, RackUnit>();
  halfUnits(rack).forEach((half, i) => {
    const whole = half % 2 === 0;
    units.set(half, {
      id: half / 2,
      idText: unitText(half, i === 0, rack),
      name: whole ? `U${half / 2}` : `U${(half / 2).toFixed(1)}`,
      face: options.face,
      device: null,
      occupied: false,
    });
  });
  const fill = (half: number, device: MountedDevice) => {
    const unit = units.get(half);
    if (!unit) return; // beyond the rack's height: nothing to show there
    if (!options.visible || options.visible.has(device.id)) unit.device = device.id;
    unit.occupied = true;
  };
  for (const device of devicesOnFace(devices, options.face, options.exclude)) {
    const first = Math.round(device.position! * 2);
    if (!options.expandDevices) {
      fill(first, device);
      continue;
    }
    const end = first + Math.round(device.height * 2);
    for (let half = first; half < end; half++) fill(half, device);
  }
  return [...units.values()];
}

/** NetBox's `q` on an elevation: the text in the unit's number or its name. */
export function matchesUnit(unit: RackUnit, q: string): boolean {
  return unit.idText.includes(q) || unit.name.includes(q);
}

/**
 * NetBox's rules of a power feed: a voltage that is never 0 (negative only for DC), its
 * rack at its panel's site, and the power it makes available, worked out on every save.
 */
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { fieldError, pyStr, related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';
import { rackDisplay } from './rack.js';

/** 0 V is no feed at all: refused with the field's own checks, before the model's rules. */
export function zeroVoltageProblem(obj: StoredObject): FieldErrors | void {
  if (obj.voltage === 0) return fieldError('voltage', 'This value may not be [0].');
}

/** The rack of a feed stands at the site of the feed's panel. */
export async function feedRackSiteProblem(obj: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  const rack = await related(view, 'dcim.rack', obj.rack);
  if (!rack) return;
  const panel = await related(view, 'dcim.powerpanel', obj.power_panel);
  if (!panel || rack.site === panel.site) return;
  const [rackSite, panelSite] = await Promise.all([
    related(view, 'dcim.site', rack.site),
    related(view, 'dcim.site', panel.site),
  ]);
  return {
    __all__: [
      `Rack ${rackDisplay(rack)} (${pyStr(rackSite?.name)}) and power panel ${pyStr(panel.name)} (${pyStr(panelSite?.name)}) are in different sites`,
    ],
  };
}

/** A negative voltage is a DC convention only. */
export function negativeAcVoltageProblem(obj: StoredObject): FieldErrors | void {
  if (typeof obj.voltage === 'number' && obj.voltage < 0 && obj.supply === 'ac') {
    return fieldError('voltage', 'Voltage cannot be negative for AC supply');
  }
}

/** NetBox's checks in its order: the field's value first, then the rack's site, then AC polarity. */
export async function powerFeedProblems(obj: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  return zeroVoltageProblem(obj) ?? (await feedRackSiteProblem(obj, view)) ?? negativeAcVoltageProblem(obj);
}

/** Python's round(): to the nearest integer, halves to the even one. */
function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * Watts the feed may deliver: |voltage| × amperage × the allowed share, times √3
 * (NetBox's 1.732) for three phases; multiplied in NetBox's order and rounded as
 * Python rounds, so the stored figure is NetBox's to the watt.
 */
export function availablePower(feed: {
  voltage: number;
  amperage: number;
  max_utilization: number;
  phase: unknown;
}): number {
  const watts = Math.abs(feed.voltage) * feed.amperage * (feed.max_utilization / 100);
  return roundHalfEven(feed.phase === 'three-phase' ? watts * 1.732 : watts);
}

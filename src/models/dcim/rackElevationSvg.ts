/**
 * A rack face drawn as SVG: a legend of unit numbers on the left, the rack's slots, and
 * each device as a box spanning the units it fills, labelled and linked to its detail
 * URL. A full-depth device mounted on the other face is drawn hatched; a device the
 * caller may not see is a blank box; with highlighting in use, the devices not
 * highlighted are dimmed.
 */
import type { RackFace } from './rackElevationQuery.js';

/** Border around the rack, in pixels. */
const BORDER = 2;

export interface DrawnDevice {
  position: number;
  height: number;
  /** Mounted on the face drawn (else: a full-depth device seen from its back). */
  onFace: boolean;
  /** null when the caller may not see the device. */
  label: string | null;
  url: string | null;
  dimmed: boolean;
}

export interface ElevationDrawing {
  rackName: string;
  face: RackFace;
  u_height: number;
  desc_units: boolean;
  unit_width: number;
  unit_height: number;
  legend_width: number;
  margin_width: number;
  devices: DrawnDevice[];
}

function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

/** A pixel size from a request: at least 1, so the drawing stays valid whatever was asked. */
function pixels(value: number): number {
  return Math.max(1, value);
}

export function drawRackElevation(d: ElevationDrawing): string {
  const unitWidth = pixels(d.unit_width);
  const unitHeight = pixels(d.unit_height);
  const legend = Math.max(0, d.legend_width);
  const width = legend + unitWidth + Math.max(0, d.margin_width) + BORDER * 2;
  const height = d.u_height * unitHeight + BORDER * 2;
  const left = legend + BORDER;
  // Distance from the rack's top edge to the top of unit `u`'s row (whole or half unit).
  const rowTop = (u: number, rows: number) =>
    BORDER + (d.desc_units ? (u - 1) * unitHeight : (d.u_height - u - rows + 1) * unitHeight);

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<title>${escapeXml(`${d.rackName} (${d.face})`)}</title>`,
    '<style>' +
      '.rack{fill:#f5f5f5;stroke:#333;stroke-width:2}' +
      '.slot{fill:none;stroke:#ccc;stroke-width:1}' +
      '.unit{font:10px sans-serif;fill:#666;text-anchor:end;dominant-baseline:middle}' +
      '.device{fill:#9ecae1;stroke:#333;stroke-width:1}' +
      '.device.other-face{fill:url(#other-face)}' +
      '.device.hidden{fill:#bbb}' +
      '.dimmed{opacity:0.3}' +
      '.label{font:11px sans-serif;fill:#000;text-anchor:middle;dominant-baseline:middle}' +
      '</style>',
    '<defs><pattern id="other-face" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
      '<rect width="8" height="8" fill="#ddd"/><line x1="0" y1="0" x2="0" y2="8" stroke="#999" stroke-width="3"/></pattern></defs>',
    `<rect class="rack" x="${left}" y="${BORDER}" width="${unitWidth}" height="${d.u_height * unitHeight}"/>`,
  );
  for (let u = 1; u <= d.u_height; u++) {
    const top = rowTop(u, 1);
    parts.push(
      `<text class="unit" x="${left - 4}" y="${top + unitHeight / 2}">${u}</text>`,
      `<rect class="slot" x="${left}" y="${top}" width="${unitWidth}" height="${unitHeight}"/>`,
    );
  }
  for (const device of d.devices) {
    const top = rowTop(device.position, device.height);
    const boxHeight = device.height * unitHeight;
    const kind = device.label === null ? ' hidden' : device.onFace ? '' : ' other-face';
    const box = `<rect class="device${kind}" x="${left + 1}" y="${top + 1}" width="${unitWidth - 2}" height="${Math.max(1, boxHeight - 2)}"/>`;
    const label =
      device.label === null
        ? ''
        : `<text class="label" x="${left + unitWidth / 2}" y="${top + boxHeight / 2}">${escapeXml(device.label)}</text>`;
    const group = `<g${device.dimmed ? ' class="dimmed"' : ''}>${box}${label}</g>`;
    parts.push(device.url ? `<a href="${escapeXml(device.url)}">${group}</a>` : group);
  }
  parts.push('</svg>');
  return parts.join('\n');
}

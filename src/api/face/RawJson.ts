/**
 * JSON that is already encoded (rendered rows kept by the render cache, as UTF-8): the
 * compact renderer sends the bytes as they are, which spares turning a large page into
 * one string, measuring it and encoding it again; the indented and browsable renderers
 * parse it back. A body may be RawJson itself or hold RawJson as top-level property
 * values (a list page's `results`).
 */
export class RawJson {
  /** The JSON text is these pieces one after the other. */
  constructor(readonly pieces: readonly Buffer[]) {}

  /** A JSON array of already encoded values. */
  static array(values: readonly Buffer[]): RawJson {
    const pieces: Buffer[] = [OPEN];
    values.forEach((value, i) => {
      if (i > 0) pieces.push(COMMA);
      pieces.push(value);
    });
    pieces.push(CLOSE);
    return new RawJson(pieces);
  }

  parse(): unknown {
    return JSON.parse(Buffer.concat(this.pieces).toString('utf8'));
  }
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** The body with its RawJson parsed back into values. */
export function parsedBody(body: unknown): unknown {
  if (body instanceof RawJson) return body.parse();
  if (!holdsRawJson(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body as Record<string, unknown>))
    out[key] = value instanceof RawJson ? value.parse() : value;
  return out;
}

/**
 * Compact JSON of a body holding RawJson, as UTF-8 (what JSON.stringify would write for
 * the parsed body, given values `text` escapes as the other bodies are), or null if it
 * holds none.
 */
export function rawJsonBytes(body: unknown, text: (value: unknown) => string): Buffer | null {
  if (body instanceof RawJson) return Buffer.concat(body.pieces);
  if (!holdsRawJson(body)) return null;
  const pieces: Buffer[] = [];
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === undefined) continue;
    pieces.push(Buffer.from(`${pieces.length ? ',' : '{'}${JSON.stringify(key)}:`));
    if (value instanceof RawJson) pieces.push(...value.pieces);
    else pieces.push(Buffer.from(text(value)));
  }
  pieces.push(Buffer.from(pieces.length ? '}' : '{}'));
  return Buffer.concat(pieces);
}

function holdsRawJson(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  for (const key in body as Record<string, unknown>)
    if ((body as Record<string, unknown>)[key] instanceof RawJson) return true;
  return false;
}

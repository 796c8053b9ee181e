import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: under ESM its function arrives as the module's `default`.
type AddFormats = typeof addFormatsModule.default;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as AddFormats;

/** An ajv instance that knows the standard string formats (uuid, date, date-time, email, uri). */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ strict: false, ...options });
  addFormats(ajv);
  return ajv;
}

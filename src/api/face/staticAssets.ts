/**
 * Static files of the face, served from this process (no CDN): the browsable API's
 * stylesheet and script, and the Swagger UI distribution from the swagger-ui-dist package.
 * Only the files listed here are served; each is read once and kept in memory.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Asset {
  content: Buffer;
  type: string;
  etag: string;
}

const require = createRequire(import.meta.url);
const FACE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'static');

function swaggerDir(): string {
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

const FOLDERS: Record<string, { dir: () => string; files: string[] }> = {
  face: { dir: () => FACE_DIR, files: ['browsable.css', 'browsable.js', 'swagger-init.js'] },
  'swagger-ui': {
    dir: swaggerDir,
    files: [
      'swagger-ui.css',
      'swagger-ui-bundle.js',
      'swagger-ui-standalone-preset.js',
      'favicon-16x16.png',
      'favicon-32x32.png',
    ],
  },
};

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
};

const cache = new Map<string, Asset | null>();

export function staticAsset(folder: string, file: string): Asset | null {
  const key = `${folder}/${file}`;
  if (cache.has(key)) return cache.get(key)!;
  const spec = Object.hasOwn(FOLDERS, folder) ? FOLDERS[folder] : undefined;
  let asset: Asset | null = null;
  if (spec && spec.files.includes(file)) {
    try {
      const content = readFileSync(path.join(spec.dir(), file));
      const etag = `"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;
      asset = { content, type: TYPES[path.extname(file)] ?? 'application/octet-stream', etag };
    } catch {
      asset = null;
    }
  }
  if (spec) cache.set(key, asset);
  return asset;
}

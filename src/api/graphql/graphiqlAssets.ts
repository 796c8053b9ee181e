/**
 * GraphiQL in the browser, from this process (no CDN): the page, its start script, and the
 * built bundles of the graphiql (3.x, UMD) and React 18 packages. Only these files are
 * served; each is read once and kept in memory.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));
const OWN_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'static');

const FILES: Record<string, () => string> = {
  'graphiql.min.js': () => path.join(packageDir('graphiql'), 'graphiql.min.js'),
  'graphiql.min.css': () => path.join(packageDir('graphiql'), 'graphiql.min.css'),
  'react.production.min.js': () => path.join(packageDir('react'), 'umd', 'react.production.min.js'),
  'react-dom.production.min.js': () => path.join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'),
  'graphiql-init.js': () => path.join(OWN_DIR, 'graphiql-init.js'),
};

export interface Asset {
  content: Buffer;
  type: string;
  etag: string;
}

const cache = new Map<string, Asset | null>();

export function graphiqlAsset(file: string): Asset | null {
  if (!Object.hasOwn(FILES, file)) return null;
  if (cache.has(file)) return cache.get(file)!;
  let asset: Asset | null = null;
  try {
    const content = readFileSync(FILES[file]());
    const etag = `"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;
    asset = {
      content,
      type: file.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      etag,
    };
  } catch {
    asset = null;
  }
  cache.set(file, asset);
  return asset;
}

/** GraphiQL's page; scripts from this origin only (the CSP allows no inline script). */
export function graphiqlPage(endpoint: string, assets: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>GraphiQL | netledger</title>
<link rel="stylesheet" href="${assets}graphiql.min.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql" data-endpoint="${endpoint}">Loading GraphiQL…</div>
<script src="${assets}react.production.min.js"></script>
<script src="${assets}react-dom.production.min.js"></script>
<script src="${assets}graphiql.min.js"></script>
<script src="${assets}graphiql-init.js"></script>
</body>
</html>
`;
}

export const GRAPHIQL_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; frame-ancestors 'self'";

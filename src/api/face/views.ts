import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import { titleWords } from './html.js';

/** Applications NetBox clients expect under /api/, whether or not they hold models yet. */
const EXPECTED_APPLICATIONS = ['circuits', 'dcim', 'extras', 'ipam', 'plugins', 'tenancy', 'users', 'virtualization'];

const appsOf = new WeakMap<ModelRegistry, Set<string>>();

/** Every application under /api/: those clients expect and those the registry's models are served under, sorted. */
export function applicationsOf(registry: ModelRegistry): string[] {
  let apps = appsOf.get(registry);
  if (!apps)
    appsOf.set(registry, (apps = new Set([...EXPECTED_APPLICATIONS, ...registry.all().map((d) => d.app)].sort())));
  return [...apps];
}

/** NetBox's names of the application root views. */
const APP_NAMES: Record<string, string> = { dcim: 'DCIM', ipam: 'IPAM' };

export function appName(app: string): string {
  return APP_NAMES[app] ?? titleWords(app.replace(/[-_]/g, ' '));
}

export const LIST_METHODS = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS';
export const DETAIL_METHODS = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';
export const READ_ONLY_METHODS = 'GET, HEAD, OPTIONS';

/** What an /api/ path is, as far as the registry knows. */
export type ApiView =
  | { kind: 'root' }
  | { kind: 'app'; app: string }
  | { kind: 'list'; definition: ModelDefinition }
  | { kind: 'detail'; definition: ModelDefinition; id: string }
  | { kind: 'other' };

export function describePath(registry: ModelRegistry, path: string): ApiView {
  if (path === '/api/') return { kind: 'root' };
  const segments = path
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean);
  if (!path.startsWith('/api/') || segments.length === 0) return { kind: 'other' };
  const [app, modelPath, id, ...rest] = segments;
  if (segments.length === 1 && applicationsOf(registry).includes(app)) return { kind: 'app', app };
  const definition = modelPath ? registry.byPath(app, modelPath) : undefined;
  if (!definition || rest.length > 0) return { kind: 'other' };
  if (id === undefined) return { kind: 'list', definition };
  return { kind: 'detail', definition, id };
}

/** The Allow header of a view (Django REST framework sends it on every response). */
export function allowedMethods(view: ApiView): string {
  switch (view.kind) {
    case 'list':
      return view.definition.readOnly ? READ_ONLY_METHODS : LIST_METHODS;
    case 'detail':
      return view.definition.readOnly ? READ_ONLY_METHODS : DETAIL_METHODS;
    case 'root':
    case 'app':
      return READ_ONLY_METHODS;
    default:
      return '';
  }
}

/** NetBox's view name: the model's verbose name with each word capitalised. */
export function modelViewName(definition: ModelDefinition): string {
  return titleWords(definition.verboseName);
}

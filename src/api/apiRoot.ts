import { readFileSync } from 'node:fs';

import Router from '@koa/router';
import type { Context } from 'koa';

import type { Principal } from '../auth/authenticateToken.js';
import { PermissionDeniedError } from '../errors/requestErrors.js';
import { CONNECTED_DEVICE_PATH } from './connectedDeviceRoute.js';
import { CONTENT_TYPES_PATH } from './extras/contentTypesRoute.js';
import { REPORTS_PATH, SCRIPTS_PATH } from './extras/reportsScriptsRoute.js';
import { eventLogSize } from './face/metrics.js';
import { serviceVersion } from './face/schemaDocument.js';
import { applicationsOf } from './face/views.js';
import { NOT_AUTHENTICATED } from './permissions.js';
import type { Services } from './Services.js';
import { USER_CONFIG_PATH } from './users/userConfigRoute.js';

/** The NetBox release whose API this service speaks. */
const NETBOX_VERSION = '3.4.10';

/** Versions of the packages the service runs on, NetBox's "installed-apps" (sorted by name). */
function installedApps(): Record<string, string> {
  const apps: Record<string, string> = {};
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const name of Object.keys(pkg.dependencies ?? {}).sort()) {
      try {
        const dep = JSON.parse(
          readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8'),
        ) as { version?: string };
        if (dep.version) apps[name] = dep.version;
      } catch {
        // not installed where expected: leave it out, as NetBox leaves out apps without a version
      }
    }
  } catch {
    // no package.json beside the sources
  }
  return apps;
}

function principalOf(ctx: Context): Principal | null {
  return ctx.state.principal ?? null;
}

/**
 * /api/, /api/<app>/, /api/status/ and /api/plugins/: browsing the API from its root,
 * in NetBox's shapes (plugins.json `endpoints`).
 */
export function apiRoot(services: Services, startedAt: Date): Router {
  const router = new Router();
  const version = serviceVersion();
  const apps = installedApps();
  const applications = applicationsOf(services.registry);

  // The root and the application roots are open to anyone, like NetBox's.
  router.get('/api/', (ctx) => {
    const entries = [...applications, 'status'].sort().map((name) => [name, `${ctx.state.baseUrl}/api/${name}/`]);
    ctx.body = Object.fromEntries(entries);
  });
  for (const app of applications) {
    if (app === 'plugins') continue;
    // endpoints served outside the registry's model routes (the change log, from the event log)
    const extra =
      app === 'extras'
        ? [CONTENT_TYPES_PATH, REPORTS_PATH, SCRIPTS_PATH, ...(services.audit ? ['object-changes'] : [])]
        : app === 'dcim'
          ? [CONNECTED_DEVICE_PATH]
          : app === 'users'
            ? [USER_CONFIG_PATH]
            : [];
    router.get(`/api/${app}/`, (ctx) => {
      const paths = [
        ...services.registry
          .all()
          .filter((d) => d.app === app)
          .map((d) => d.path),
        ...extra,
      ].sort();
      ctx.body = Object.fromEntries(paths.map((path) => [path, `${ctx.state.baseUrl}/api/${app}/${path}/`]));
    });
  }

  // No plugins: the plugin root names only the installed-plugins list, which is empty.
  router.get('/api/plugins/', (ctx) => {
    ctx.body = { 'installed-plugins': `${ctx.state.baseUrl}/api/plugins/installed-plugins/` };
  });
  router.get('/api/plugins/installed-plugins/', (ctx) => {
    const principal = principalOf(ctx);
    if (!principal) throw new PermissionDeniedError(NOT_AUTHENTICATED);
    if (principal.user.is_staff !== true && !principal.isSuperuser) throw new PermissionDeniedError();
    ctx.body = [];
  });

  router.get('/api/status/', async (ctx) => {
    if (services.config.loginRequired && !principalOf(ctx)) throw new PermissionDeniedError(NOT_AUTHENTICATED);
    const head = services.log.head();
    const position = services.projector.position;
    ctx.body = {
      // NetBox's keys, in NetBox's order
      'django-version': null,
      'installed-apps': apps,
      'netbox-version': NETBOX_VERSION,
      plugins: {},
      'python-version': null,
      // the projector is this service's one background worker
      'rq-workers-running': 1,
      // this service's own
      'netledger-version': version,
      'node-version': process.versions.node,
      'event-log': { type: services.log.constructor.name, head, 'size-bytes': await eventLogSize(services) },
      'read-store': { type: services.store.constructor.name },
      projector: { position, head, lag: Math.max(0, head - position) },
      'started-at': startedAt.toISOString(),
      'uptime-seconds': Math.round((Date.now() - startedAt.getTime()) / 1000),
    };
  });
  return router;
}
